// The webhook events the service still owes its receiver, in SQLite: an event is
// written in the same transaction as the status change it reports, and removed
// once delivered or given up on, so a crash or restart loses none.
import type { DatabaseSync } from 'node:sqlite';

export interface OutboxEntry {
  seq: number;
  /** The `webhook-id` of every attempt, across restarts, so the receiver can de-duplicate. */
  messageId: string;
  scanId: string;
  body: string;
}

export interface WebhookOutbox {
  add(entry: Omit<OutboxEntry, 'seq'>): OutboxEntry;
  /** Everything not yet delivered, oldest first. */
  pending(): OutboxEntry[];
  remove(seq: number): void;
  /** Drops a scan's undelivered events (the scan was forgotten; see scanning/recovery.ts). */
  removeScan(scanId: string): void;
  /** Drops every entry (webhooks are off now); returns how many there were. */
  clear(): number;
}

export function createWebhookOutbox(db: DatabaseSync): WebhookOutbox {
  const insert = db.prepare('INSERT INTO webhook_outbox (message_id, scan_id, body) VALUES (?, ?, ?) RETURNING seq');
  const all = db.prepare('SELECT seq, message_id AS messageId, scan_id AS scanId, body FROM webhook_outbox ORDER BY seq');
  const removeOne = db.prepare('DELETE FROM webhook_outbox WHERE seq = ?');
  const removeOfScan = db.prepare('DELETE FROM webhook_outbox WHERE scan_id = ?');
  const removeAll = db.prepare('DELETE FROM webhook_outbox');
  return {
    add(entry) {
      const { seq } = insert.get(entry.messageId, entry.scanId, entry.body) as { seq: number };
      return { seq, ...entry };
    },
    pending: () => all.all() as unknown as OutboxEntry[],
    remove(seq) {
      removeOne.run(seq);
    },
    removeScan(scanId) {
      removeOfScan.run(scanId);
    },
    clear: () => Number(removeAll.run().changes),
  };
}
