// The quarantine and names that are not UTF-8, on real files: a file is moved in from its exact
// bytes (never the file its lossy name would mean), the journal keeps its original path across a
// restart, and restoring it (on this device or across devices) puts back the very same name.
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openQuarantine, type Quarantine } from '../../../electron/quarantine/quarantine.ts';
import { bytesOf, rawPath, writeByteName } from '../../support/byte-names.ts';
import { otherDeviceDir, sha256, tempDir, type TempDir } from './support.ts';

let dir: TempDir;
let data: string;
let files: string;
let quarantine: Quarantine;

beforeEach(async () => {
  dir = await tempDir('verdict-quarantine-bytes-');
  data = join(dir.path, 'data');
  files = join(dir.path, 'files');
  await mkdir(files);
  quarantine = await openQuarantine(data);
});
afterEach(async () => {
  quarantine.close();
  await dir.remove();
});

/** The names in a folder, as raw bytes in hex (what is really on disk). */
const namesOnDisk = (folder: string) => readdirSync(rawPath(folder), { encoding: 'buffer' }).map((name) => name.toString('hex')).sort();
const hexOf = (latin1: string) => bytesOf(latin1).toString('hex');

describe('quarantine: names that are not UTF-8', () => {
  it('moves col\\xff.com in, leaves col\\xef\\xbf\\xbd.com alone, and restores the exact name after a restart', async () => {
    const threat = writeByteName(files, bytesOf('col\xff.com'), 'EVIL-BYTES');
    writeByteName(files, bytesOf('col\xef\xbf\xbd.com'), 'innocent');
    const moved = await quarantine.quarantine({ path: threat, sha256: sha256('EVIL-BYTES'), recordId: 'rec-bytes' });
    expect(moved.ok && moved.value).toMatchObject({ originalPath: threat, fileName: 'col\uDCFF.com', state: 'quarantined' });
    expect(namesOnDisk(files)).toEqual([hexOf('col\xef\xbf\xbd.com')]);

    quarantine.close();
    quarantine = await openQuarantine(data);
    const entry = quarantine.list()[0]!;
    expect(entry.originalPath).toBe(threat);
    const restored = await quarantine.restore(entry.id);
    expect(restored.ok, restored.ok ? '' : restored.error.message).toBe(true);
    expect(namesOnDisk(files)).toEqual([hexOf('col\xef\xbf\xbd.com'), hexOf('col\xff.com')].sort());
    expect(readFileSync(rawPath(threat), 'utf8')).toBe('EVIL-BYTES');
  });

  it('refuses to restore over a file of the same bytes, and restores to another name so named', async () => {
    const threat = writeByteName(files, bytesOf('x\xfe'), 'EVIL-2');
    const moved = await quarantine.quarantine({ path: threat, sha256: sha256('EVIL-2'), recordId: null });
    if (!moved.ok) throw new Error(moved.error.message);
    writeByteName(files, bytesOf('x\xfe'), 'someone else');
    const refused = await quarantine.restore(moved.value.id);
    expect(!refused.ok && refused.error.code).toBe('restore_conflict');
    const elsewhere = join(files, 'other\uDCFD');
    const restored = await quarantine.restore(moved.value.id, { to: elsewhere });
    expect(restored.ok && restored.value.restoredTo).toBe(elsewhere);
    expect(readFileSync(rawPath(elsewhere), 'utf8')).toBe('EVIL-2');
  });

  it('moves across devices and back under the exact name', async () => {
    const other = await otherDeviceDir('verdict-quarantine-bytes-other-');
    if (!other) return;
    try {
      const threat = writeByteName(other.path, bytesOf('far\xc0\xaf'), 'EVIL-3');
      const moved = await quarantine.quarantine({ path: threat, sha256: sha256('EVIL-3'), recordId: null });
      if (!moved.ok) throw new Error(moved.error.message);
      expect(namesOnDisk(other.path)).toEqual([]);
      const restored = await quarantine.restore(moved.value.id);
      expect(restored.ok).toBe(true);
      expect(namesOnDisk(other.path)).toEqual([hexOf('far\xc0\xaf')]);
    } finally {
      await other.remove();
    }
  });
});
