// What an endpoint handler gets: the exchange, the caller's language and the
// integration its API key belongs to; and the service parts it works with.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '../../../shared/service-contract/limits.ts';
import type { ScanRunner } from '../scanning/scan-runner.ts';
import type { DataDirLayout } from '../store/data-dir.ts';
import type { ScanStore, StoredScan } from '../store/scan-store.ts';
import type { MemoryBudget } from '../upload/upload-sink.ts';

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  language: Language;
  integrationId: string;
}

export interface ServiceParts {
  layout: DataDirLayout;
  store: ScanStore;
  runner: ScanRunner;
  syncWindowMs: number;
  /** Shared by all uploads being received into memory (small files; see upload/upload-sink.ts). */
  uploadMemory: MemoryBudget;
  /**
   * Tells webhook subscribers that a scan entered `processing` (called inside the insert's
   * transaction); null when nobody listens (webhooks off), and the insert commits alone.
   */
  onSubmitted: ((scan: StoredScan) => void) | null;
}
