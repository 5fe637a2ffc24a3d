// A second opinion from VirusTotal, by hash only (issue 29 §4): what the window may ask the
// main process, and the answers it gets. The key stays in the main process; the renderer
// hears only whether one is set (masked). Nothing here uploads a file, ever.
import { z } from 'zod';
import type { KeyStatus } from '../bridge/api.ts';
import type { Result } from '../result.ts';

export const sha256Schema = z.string().regex(/^[0-9a-fA-F]{64}$/);

/** The public page of a file's report: opened in the browser, no key, nothing sent but the hash in the address. */
export function virusTotalFileUrl(sha256: string): string {
  return `https://www.virustotal.com/gui/file/${sha256.toLowerCase()}`;
}

/**
 * The last analysis VirusTotal holds for a hash, or why there is none to show:
 * `unknown`, VirusTotal has never seen the file; `no_key`, no key is set (the link still works);
 * `key_refused`, VirusTotal answered 401; `quota`, it kept answering 429 (the daily or monthly
 * quota is used up); `unavailable`, it could not be reached or answered something else (`detail`, English).
 */
export type VirusTotalAnswer =
  | {
      kind: 'known';
      /** Engines that called it malicious, and suspicious. */
      malicious: number;
      suspicious: number;
      /** Engines that gave a verdict (malicious, suspicious, harmless or undetected). */
      engines: number;
      /** When VirusTotal last analysed it (ISO 8601), if it says. */
      analysedAt: string | null;
    }
  | { kind: 'unknown' }
  | { kind: 'no_key' }
  | { kind: 'key_refused' }
  | { kind: 'quota' }
  | { kind: 'unavailable'; detail: string };

export interface VirusTotalApi {
  /** VirusTotal's last analysis of this SHA-256 (waits its turn: 4 lookups a minute). */
  lookup(sha256: string): Promise<Result<VirusTotalAnswer>>;
  keyStatus(): Promise<Result<KeyStatus>>;
  setKey(key: string): Promise<Result<KeyStatus>>;
  clearKey(): Promise<Result<KeyStatus>>;
}

/** The IPC channels of `virusTotal`, each with the schema of its argument tuple. */
export const VIRUSTOTAL_CHANNELS = {
  'virusTotal:lookup': z.tuple([sha256Schema]),
  'virusTotal:keyStatus': z.tuple([]),
  'virusTotal:setKey': z.tuple([z.string().max(4096)]),
  'virusTotal:clearKey': z.tuple([]),
} as const;
