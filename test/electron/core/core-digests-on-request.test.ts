// "Compute MD5 and SHA-1" through the real core: a local scan records sha256 only (md5 and sha1
// are not computed on the hot path); on request the core reads the file once more and gives MD5
// and SHA-1 of the bytes scanned. A file changed (even to the same size) or gone gets its own
// error, and no digest; a name that is not UTF-8 is read by its exact bytes.
import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { bytesOf, byteNamePath, rawPath } from '../../support/byte-names.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, open } = useCoreFixture('verdict-core-digests-');

const hex = (name: string, content: Buffer | string) => createHash(name).update(content).digest('hex');

async function scanned(core: CoreInternals, path: string): Promise<ScanRecord> {
  const submitted = await core.submit([path], { origin: 'cli' });
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.idle();
  const record = await core.scans.get(submitted.value.ids[0] ?? '');
  if (!record.ok) throw new Error(record.error.message);
  return record.value;
}

describe('MD5 and SHA-1 on request', () => {
  it('a local scan records sha256 only; on request, MD5 and SHA-1 of the file scanned', async () => {
    const core = await open();
    const content = 'a file a user wants to look up elsewhere\n';
    const path = join(dir.path, 'report.txt');
    writeFileSync(path, content);
    const record = await scanned(core, path);
    expect(record).toMatchObject({ status: 'completed', sha256: hex('sha256', content), md5: null, sha1: null });

    expect(await core.scans.digests(record.id)).toEqual({ ok: true, value: { md5: hex('md5', content), sha1: hex('sha1', content), sha256: record.sha256 } });
  });

  it('a file rewritten to the same size is "changed", a removed one "gone": no digests for either', async () => {
    const core = await open();
    const path = join(dir.path, 'draft.txt');
    writeFileSync(path, 'version one\n');
    const record = await scanned(core, path);
    writeFileSync(path, 'version two\n');
    expect(await core.scans.digests(record.id)).toMatchObject({ ok: false, error: { code: 'file_changed' } });
    rmSync(path);
    expect(await core.scans.digests(record.id)).toMatchObject({ ok: false, error: { code: 'file_gone' } });
  });

  it('unknown or malformed ids are refused with a code; a name that is not UTF-8 is read by its bytes', async () => {
    const core = await open();
    expect(await core.scans.digests('no-such-scan')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await core.scans.digests('')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const path = byteNamePath(dir.path, bytesOf('caf\xe9.bin'));
    writeFileSync(rawPath(path), 'bytes\n');
    const record = await scanned(core, path);
    expect(await core.scans.digests(record.id)).toMatchObject({ ok: true, value: { md5: hex('md5', 'bytes\n'), sha1: hex('sha1', 'bytes\n') } });
  });
});
