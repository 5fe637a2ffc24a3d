// A small sync scan as the service would insert it, numbered so each test's scans differ.
import type { NewScan } from '../../../../electron/local-service/store/scan-store.ts';

let next = 0;

export function newScan(overrides: Partial<NewScan> = {}): NewScan {
  next += 1;
  return {
    id: `scan-${next}`,
    integrationId: 'integration',
    externalReferenceId: `ref-${next}`,
    executionMode: 'sync',
    fileName: 'a.bin',
    fileSize: 3,
    fileType: 'application/octet-stream',
    fileHash: { md5: 'a'.repeat(32), sha1: 'b'.repeat(40), sha256: 'c'.repeat(64) },
    submittedAt: '2026-11-26T00:00:00.000Z',
    ...overrides,
  };
}
