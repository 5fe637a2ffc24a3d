// Layout of the service's data directory:
//   local-service.sqlite   the scans (plus -wal/-shm while open)
//   incoming/              uploads being received (`<uuid>.part`); emptied on start
//   uploads/<scan id>      accepted uploads waiting for or under scan; deleted once scanned
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DataDirLayout {
  root: string;
  databaseFile: string;
  incomingDir: string;
  uploadsDir: string;
  uploadFileOf(scanId: string): string;
}

export function prepareDataDir(root: string): DataDirLayout {
  const incomingDir = join(root, 'incoming');
  const uploadsDir = join(root, 'uploads');
  // Uploads may be malware and are private to the user: owner-only.
  for (const dir of [root, incomingDir, uploadsDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return {
    root,
    databaseFile: join(root, 'local-service.sqlite'),
    incomingDir,
    uploadsDir,
    uploadFileOf: (scanId) => join(uploadsDir, scanId),
  };
}
