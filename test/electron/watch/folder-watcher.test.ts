// The folder watcher on real files in temporary folders: complete files only,
// each version once, the right files and nothing else.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, folder, waitFor, type Collector } from './support/collector.ts';
import { useTempFolders } from './support/temp-folders.ts';

const { tempDir, onCleanup } = useTempFolders();

async function watching(options: Parameters<typeof collect>[0]): Promise<Collector> {
  const collector = collect(options);
  onCleanup(() => collector.close());
  await collector.watcher.started();
  for (const status of collector.watcher.statuses()) expect(status.state, status.error ?? '').toBe('watching');
  return collector;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('complete files', () => {
  it('reports a file written slowly in chunks once, after the last chunk, with its final size', async () => {
    const dir = await tempDir();
    // Chunks 100 ms apart for twice the 1 s threshold: the write outlasts one settle window,
    // and a report between chunks would be a settle bug (a gap is 10x shorter than the threshold).
    const c = await watching({ folders: [folder('a', dir)], settleMs: 1000 });
    const file = path.join(dir, 'slow.bin');
    const handle = await fs.open(file, 'w');
    const chunks = 20;
    for (let chunk = 0; chunk < chunks; chunk += 1) {
      await handle.write(Buffer.alloc(64 * 1024, chunk));
      await handle.sync();
      expect(c.reportsOf(file)).toEqual([]);
      await pause(100);
    }
    await handle.close();
    const report = await c.waitForReport(file);
    expect(report).toMatchObject({ path: file, size: chunks * 64 * 1024, folderId: 'a' });
    expect(report.mtimeMs).toBe((await fs.stat(file)).mtimeMs);
    await c.barrier(dir);
    expect(c.reportsOf(file)).toHaveLength(1);
  });

  it('reports x.pdf once when x.pdf.crdownload is renamed to it, and never the partial name', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const partial = path.join(dir, 'x.pdf.crdownload');
    await fs.writeFile(partial, 'half');
    await fs.appendFile(partial, ' and the rest');
    await fs.rename(partial, path.join(dir, 'x.pdf'));
    const report = await c.waitForReport(path.join(dir, 'x.pdf'));
    expect(report.size).toBe('half and the rest'.length);
    await c.barrier(dir);
    expect(c.files.filter((file) => !file.path.includes('barrier')).map((file) => path.basename(file.path))).toEqual(['x.pdf']);
  });

  it('reports a file moved in from elsewhere, even with an old mtime', async () => {
    const dir = await tempDir();
    const outside = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const source = path.join(outside, 'moved.zip');
    await fs.writeFile(source, 'zip bytes');
    const old = new Date('2001-01-01T00:00:00Z');
    await fs.utimes(source, old, old);
    await fs.rename(source, path.join(dir, 'moved.zip'));
    const report = await c.waitForReport(path.join(dir, 'moved.zip'));
    expect(report).toMatchObject({ size: 9, mtimeMs: old.getTime() });
  });

  it('reports changed content again, but the same version only once', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const file = path.join(dir, 'doc.txt');
    await fs.writeFile(file, 'version one');
    await c.waitForReport(file);
    await fs.appendFile(file, ', then two');
    await waitFor('the second version', () => c.reportsOf(file).length === 2);
    expect(c.reportsOf(file).map((report) => report.size)).toEqual([11, 21]);
    // Metadata-only changes (mode, atime, link count) are no new version.
    await fs.chmod(file, 0o600);
    await fs.readFile(file);
    const outside = await tempDir();
    await fs.link(file, path.join(outside, 'hard-link'));
    await c.barrier(dir);
    expect(c.reportsOf(file)).toHaveLength(2);
  });

  it('does not report empty files (placeholders), but does once they get content', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const file = path.join(dir, 'placeholder.pdf');
    await fs.writeFile(file, '');
    await c.barrier(dir);
    expect(c.reportsOf(file)).toEqual([]);
    await fs.writeFile(path.join(dir, 'placeholder.pdf.part'), 'the download');
    await fs.rename(path.join(dir, 'placeholder.pdf.part'), file);
    expect((await c.waitForReport(file)).size).toBe(12);
  });
});

describe('which files', () => {
  it('watches nested folders when recursive, only the top level when not', async () => {
    const deep = await tempDir();
    const flat = await tempDir();
    const c = await watching({ folders: [folder('deep', deep), folder('flat', flat, { recursive: false })] });
    for (const dir of [deep, flat]) {
      await fs.mkdir(path.join(dir, 'sub', 'deeper'), { recursive: true });
      await fs.writeFile(path.join(dir, 'sub', 'deeper', 'nested.txt'), 'nested');
      await fs.writeFile(path.join(dir, 'sub', 'one-down.txt'), 'one down');
      await fs.writeFile(path.join(dir, 'top.txt'), 'top');
    }
    await c.waitForReport(path.join(deep, 'sub', 'deeper', 'nested.txt'));
    await c.waitForReport(path.join(deep, 'sub', 'one-down.txt'));
    await c.waitForReport(path.join(flat, 'top.txt'));
    await c.barrier(flat);
    expect(c.files.filter((file) => file.folderId === 'flat').map((file) => path.relative(flat, file.path))).not.toContain(path.join('sub', 'one-down.txt'));
    expect(c.files.filter((file) => file.folderId === 'flat' && file.path.includes(`${path.sep}sub${path.sep}`))).toEqual([]);
  });

  it('skips per-folder ignore patterns and partial-download names by default', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir, { ignore: ['*.iso', 'build/**', 'cache', 'logs/*.log'] })] });
    await fs.mkdir(path.join(dir, 'build', 'out'), { recursive: true });
    await fs.mkdir(path.join(dir, 'nested', 'cache'), { recursive: true });
    await fs.mkdir(path.join(dir, 'logs'), { recursive: true });
    await fs.mkdir(path.join(dir, 'report.pdf.download'), { recursive: true });
    const ignored = [
      'report.pdf.download/report.pdf',
      'disk.iso',
      'nested/disk2.iso',
      'build/out/app.exe',
      'nested/cache/blob',
      'logs/app.log',
      'a.crdownload',
      'b.PART',
      'c.partial',
      'd.download',
      'e.tmp',
      '~$report.docx',
      '.~lock.sheet.ods#',
      '.notes.txt.swp',
    ];
    for (const name of ignored) await fs.writeFile(path.join(dir, name), 'ignored');
    await fs.writeFile(path.join(dir, 'kept.iso.txt'), 'kept');
    await fs.writeFile(path.join(dir, 'logs', 'kept.txt'), 'kept');
    await c.waitForReport(path.join(dir, 'kept.iso.txt'));
    await c.waitForReport(path.join(dir, 'logs', 'kept.txt'));
    await c.barrier(dir);
    const reported = c.files.map((file) => path.relative(dir, file.path).split(path.sep).join('/'));
    for (const name of ignored) expect(reported).not.toContain(name);
  });

  it('skips FIFOs, sockets and links (loops and broken ones too) and keeps reporting regular files', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(dir, 'socket'), resolve));
    onCleanup(() => new Promise((resolve) => server.close(resolve)));
    await fs.mkdir(path.join(dir, 'a', 'b'), { recursive: true });
    await fs.symlink(dir, path.join(dir, 'loop'));
    await fs.symlink('..', path.join(dir, 'a', 'b', 'up'));
    await fs.symlink(path.join(dir, 'nowhere'), path.join(dir, 'broken'));
    await fs.writeFile(path.join(dir, 'target.txt'), 'target');
    await fs.symlink(path.join(dir, 'target.txt'), path.join(dir, 'link-to-file'));
    await fs.writeFile(path.join(dir, 'a', 'b', 'real.txt'), 'real');
    await c.waitForReport(path.join(dir, 'a', 'b', 'real.txt'));
    await c.barrier(dir);
    const names = c.files.map((file) => path.relative(dir, file.path));
    expect(names.filter((name) => !name.startsWith('barrier'))).toEqual(expect.arrayContaining(['target.txt', path.join('a', 'b', 'real.txt')]));
    for (const skipped of ['pipe', 'socket', 'loop', 'broken', 'link-to-file']) expect(names).not.toContain(skipped);
    expect(names.some((name) => name.includes('loop') || name.includes(`${path.sep}up${path.sep}`))).toBe(false);
    expect(c.status('a')?.state).toBe('watching');
  });

  it('reports an unreadable file like any other: opening it (and saying why it failed) is the pipeline’s job', async () => {
    const dir = await tempDir();
    const c = await watching({ folders: [folder('a', dir)] });
    const file = path.join(dir, 'locked.bin');
    await fs.writeFile(file, 'secret', { mode: 0o000 });
    await fs.chmod(file, 0o000);
    // The watcher only stats files, which needs no read permission on the file.
    expect((await c.waitForReport(file)).size).toBe(6);
    expect(c.status('a')).toMatchObject({ state: 'watching', error: null });
  });
});

describe('files already there', () => {
  it('reports existing files only with scanExisting', async () => {
    const quiet = await tempDir();
    const full = await tempDir();
    for (const dir of [quiet, full]) {
      await fs.mkdir(path.join(dir, 'sub'));
      await fs.writeFile(path.join(dir, 'old.txt'), 'old');
      await fs.writeFile(path.join(dir, 'sub', 'old2.txt'), 'old too');
    }
    const c = await watching({ folders: [folder('quiet', quiet), folder('full', full, { scanExisting: true })] });
    await c.waitForReport(path.join(full, 'old.txt'));
    await c.waitForReport(path.join(full, 'sub', 'old2.txt'));
    await c.barrier(quiet);
    const quietReports = c.files.filter((file) => file.folderId === 'quiet').map((file) => path.basename(file.path));
    expect(quietReports.filter((name) => !name.startsWith('barrier'))).toEqual([]);
    await fs.writeFile(path.join(quiet, 'new.txt'), 'new');
    await c.waitForReport(path.join(quiet, 'new.txt'));
  });

  it('catches up on files changed since a given time for the folders it starts with', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'recent.txt'), 'recent');
    const late = collect({ folders: [folder('a', dir)], catchUpSince: Date.now() + 60_000 });
    onCleanup(() => late.close());
    await late.watcher.started();
    await late.barrier(dir);
    expect(late.reportsOf(path.join(dir, 'recent.txt'))).toEqual([]);
    await late.close();

    const early = collect({ folders: [folder('a', dir)], catchUpSince: Date.now() - 60_000 });
    onCleanup(() => early.close());
    await early.waitForReport(path.join(dir, 'recent.txt'));
  });
});

describe('the folder list', () => {
  it('reports paths under the configured path when it is a symlink to the real folder', async () => {
    const real = await tempDir();
    const links = await tempDir();
    const linked = path.join(links, 'Downloads');
    await fs.symlink(real, linked);
    const c = await watching({ folders: [folder('a', linked)] });
    await fs.writeFile(path.join(real, 'via-link.txt'), 'hello');
    expect((await c.waitForReport(path.join(linked, 'via-link.txt'))).folderId).toBe('a');
  });

  it('adds, changes and removes folders with setFolders', async () => {
    const first = await tempDir();
    const second = await tempDir();
    const c = await watching({ folders: [folder('one', first)] });
    c.watcher.setFolders([folder('one', first), folder('two', second)]);
    await c.waitForState('two', 'watching');
    await fs.writeFile(path.join(second, 'in-two.txt'), 'two');
    expect((await c.waitForReport(path.join(second, 'in-two.txt'))).folderId).toBe('two');

    // New ignore patterns restart the folder with them.
    c.watcher.setFolders([folder('one', first, { ignore: ['*.skip'] }), folder('two', second)]);
    await c.waitForState('one', 'watching');
    await fs.writeFile(path.join(first, 'x.skip'), 'skip');
    await c.barrier(first);
    expect(c.reportsOf(path.join(first, 'x.skip'))).toEqual([]);

    c.watcher.setFolders([folder('one', first, { ignore: ['*.skip'] })]);
    expect(c.watcher.statuses().map((status) => status.folder.id)).toEqual(['one']);
    await fs.writeFile(path.join(second, 'after-removal.txt'), 'gone');
    await c.barrier(first);
    expect(c.reportsOf(path.join(second, 'after-removal.txt'))).toEqual([]);
  });
});
