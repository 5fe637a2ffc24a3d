// Finished scans written into a data folder's history before the app starts (e2e `prepare`),
// for views that read verdicts the test chooses rather than ones an engine gives.
import { randomUUID } from 'node:crypto';
import { openHistory } from '../../../electron/history/history.ts';
import { queuedRecord, type ScanRecord } from '../../../shared/scans/record.ts';

/** A completed scan of /home/user/`fileName`, finished at `at`: clean unless `over` says otherwise. */
export function judgedRecord(fileName: string, at: string, over: Partial<ScanRecord>): ScanRecord {
  const id = randomUUID();
  return {
    ...queuedRecord({ id, path: `/home/user/${fileName}`, fileName, origin: 'drop', backend: 'local', externalReferenceId: `verdict/e2e/${id}`, queuedAt: at }),
    status: 'completed',
    safe: true,
    completedAt: at,
    ...over,
  };
}

/** A `prepare` step that writes these records into the history. */
export const seedHistory = (records: readonly ScanRecord[]) => (dataDir: string) => {
  const history = openHistory(dataDir);
  try {
    history.insertMany(records);
  } finally {
    history.close();
  }
};
