// A dropped folder holding a symbolic link out of it (to a "private key" next to
// it), through the real core and a real remote service on loopback: the link is
// listed as skipped with why, nothing is sent for it (the service's scan count),
// and the key is never read (its access time stays as it was). Naming the link
// itself does send it: the user chose it. "Scan again" on the skipped row checks
// the link against its folder again instead of following it.
import { mkdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CoreInternals } from '../../../electron/core/create-core.ts';
import type { ScanRecord } from '../../../shared/scans/record.ts';
import { FAST, startTestService } from '../scans/harness.ts';
import { useCoreFixture } from './core-fixture.ts';

const { dir, open, onCleanup } = useCoreFixture('verdict-core-link-outside-');

async function record(core: CoreInternals, id: string): Promise<ScanRecord> {
  const found = await core.scans.get(id);
  if (!found.ok) throw new Error(found.error.message);
  return found.value;
}

/** Last read time of a file, in ms. */
const atime = async (path: string) => (await stat(path)).atimeMs;

describe('a dropped folder with a link out of it', () => {
  it('lists the link as skipped, sends nothing for it and never reads its target; the link named directly is sent', async () => {
    const service = await startTestService(join(dir.path, 'remote'));
    onCleanup(() => service.close());
    const core = await open(FAST, { serviceOverride: { baseUrl: service.url, apiKey: service.key } });

    const ssh = join(dir.path, 'home', '.ssh');
    await mkdir(ssh, { recursive: true });
    const key = join(ssh, 'id_rsa');
    await writeFile(key, '-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n');
    // Read two days ago: reading it now would move the access time (relatime updates anything older than a day).
    const { mtime } = await stat(key);
    await utimes(key, new Date(Date.now() - 2 * 24 * 3600_000), mtime);
    const before = await atime(key);

    const dropped = join(dir.path, 'Downloads');
    await mkdir(dropped);
    await writeFile(join(dropped, 'invoice.txt'), 'an invoice\n');
    const link = join(dropped, 'notes.txt');
    await symlink(key, link);

    const submitted = await core.submit([dropped], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    expect(submitted.value).toMatchObject({ queued: 1, skipped: 0, linksNotFollowed: 1, failed: 0 });
    await core.idle();

    const rows = await Promise.all(submitted.value.ids.map((id) => record(core, id)));
    expect(rows.find((row) => row.path === join(dropped, 'invoice.txt'))).toMatchObject({ status: 'completed', safe: true });
    const skipped = rows.find((row) => row.path === link);
    const target = realpathSync(key);
    expect(skipped).toMatchObject({ status: 'skipped', safe: null, size: null, sha256: null, serviceScanId: null, submittedAt: null });
    expect(skipped?.error).toEqual({
      code: 'link_outside',
      message: `Not scanned: ${link} is a symbolic link to ${target}, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.`,
      params: { path: link, target, folder: realpathSync(dropped) },
    });
    // Only the invoice reached the service; the key was not even read.
    expect(service.scanCount()).toBe(1);
    expect(await atime(key)).toBe(before);

    // "Scan again" on the skipped row: still a link out of its folder, so skipped again, still nothing sent.
    expect(await core.scans.rescan(skipped!.id)).toEqual({ ok: true, value: { queued: 0 } });
    await core.idle();
    const again = await core.scans.list({ limit: 10, order: 'newest' });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.items[0]).toMatchObject({ path: link, origin: 'rescan', status: 'skipped', error: { code: 'link_outside' } });
    expect(service.scanCount()).toBe(1);
    expect(await atime(key)).toBe(before);

    // The link named directly (dropped by itself): followed, the user chose it. This also shows the checks above could fail.
    const named = await core.submit([link], { origin: 'drop' });
    if (!named.ok) throw new Error(named.error.message);
    expect(named.value).toMatchObject({ queued: 1, linksNotFollowed: 0 });
    await core.idle();
    expect(await record(core, named.value.ids[0]!)).toMatchObject({ path: link, status: 'completed', safe: true });
    expect(service.scanCount()).toBe(2);
    expect(await atime(key)).not.toBe(before);
  });

  it('"scan again" on a skipped link scans it once the link leads into its folder', async () => {
    const core = await open();
    const dropped = join(dir.path, 'Downloads');
    await mkdir(join(dropped, 'sub'), { recursive: true });
    const outside = join(dir.path, 'outside.txt');
    await writeFile(outside, 'outside\n');
    const link = join(dropped, 'sub', 'link.txt');
    await symlink(outside, link);
    const submitted = await core.submit([dropped], { origin: 'drop' });
    if (!submitted.ok) throw new Error(submitted.error.message);
    const [id] = submitted.value.ids;
    expect(await record(core, id!)).toMatchObject({ status: 'skipped', error: { code: 'link_outside' } });

    await rm(link);
    await writeFile(join(dropped, 'inside.txt'), 'inside\n');
    await symlink(join('..', 'inside.txt'), link);
    expect(await core.scans.rescan(id!)).toEqual({ ok: true, value: { queued: 1 } });
    await core.idle();
    const latest = await core.scans.list({ limit: 1, order: 'newest' });
    if (!latest.ok) throw new Error(latest.error.message);
    expect(latest.value.items[0]).toMatchObject({ path: link, origin: 'rescan', status: 'completed', safe: true });
  });
});
