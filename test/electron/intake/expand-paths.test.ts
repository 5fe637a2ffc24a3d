// Intake against real files, folders, links (in and out of the chosen folder), FIFOs, sockets and devices in a temp folder.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { expandPaths, type IntakeItem } from '../../../electron/intake/expand-paths.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { unreadableFile, WRITE_ONLY_FILE } from '../../support/unreadable-file.ts';

let root: string;
const sockets: net.Server[] = [];

async function collect(paths: string[], options?: Parameters<typeof expandPaths>[1]): Promise<IntakeItem[]> {
  const items: IntakeItem[] = [];
  for await (const item of expandPaths(paths, options)) items.push(item);
  return items;
}

async function one(p: string): Promise<IntakeItem> {
  const items = await collect([p]);
  expect(items).toHaveLength(1);
  return items[0]!;
}

function file(relative: string, content: string | Buffer = 'x'): string {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
}

beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'verdict-intake-'));
});

afterAll(async () => {
  await Promise.all(sockets.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(root, { recursive: true, force: true });
});

describe('expandPaths: single entries', () => {
  it('accepts a regular file with its size, mtime and identity', async () => {
    const p = file('regular.txt', 'hello');
    const before = Date.now();
    const item = await one(p);
    const info = statSync(p);
    const full = statSync(p, { bigint: true });
    // The identity in nanoseconds too (the unchanged-file skip's, taken no later than the fstat), and the same mtimeMs as a plain stat.
    const identity = { dev: String(full.dev), ino: String(full.ino), size: 5, mtimeNs: String(full.mtimeNs), ctimeNs: String(full.ctimeNs) };
    expect(item).toEqual({ ok: true, path: p, realPath: p, size: 5, mtimeMs: info.mtimeMs, dev: info.dev, ino: info.ino, identity: { file: identity, atMs: expect.any(Number) } });
    const { atMs } = (item as { identity: { atMs: number } }).identity;
    expect(atMs).toBeGreaterThanOrEqual(before);
    expect(atMs).toBeLessThanOrEqual(Date.now());
  });

  it('accepts an empty file', async () => {
    const item = await one(file('empty.bin', ''));
    expect(item).toMatchObject({ ok: true, size: 0 });
  });

  it('resolves a relative path against the working directory', async () => {
    const p = file('relative.txt');
    const item = await one(path.relative(process.cwd(), p));
    expect(item).toMatchObject({ ok: true, path: p });
  });

  it('reports a missing path as not_found', async () => {
    const p = path.join(root, 'does-not-exist.txt');
    const item = await one(p);
    expect(item).toMatchObject({ ok: false, path: p, code: 'not_found' });
    if (!item.ok) expect(item.message).toContain(p);
  });

  it('reports a path through a file as not_found', async () => {
    const item = await one(path.join(file('plain-file'), 'child'));
    expect(item).toMatchObject({ ok: false, code: 'not_found' });
  });

  it('rejects an empty path instead of scanning the working directory', async () => {
    expect(await one('')).toMatchObject({ ok: false, code: 'invalid_path' });
    expect(await one('a\0b')).toMatchObject({ ok: false, code: 'invalid_path' });
  });

  it('rejects a FIFO without opening it (does not hang)', { timeout: 10_000 }, async () => {
    const fifo = path.join(root, 'pipe');
    const made = spawnSync('mkfifo', [fifo]);
    expect(made.status).toBe(0);
    const item = await one(fifo);
    expect(item).toMatchObject({ ok: false, code: 'not_regular_file', kind: 'fifo' });
    if (!item.ok) expect(item.message).toMatch(/named pipe/);
    // What the UI words it from in its own language (shared/scans/failure.ts).
    expect(item).toMatchObject({ params: { cause: 'not_regular', path: fifo, kind: 'fifo' } });
  });

  it('rejects a unix socket', async () => {
    const socketPath = path.join(root, 'sock');
    const server = net.createServer();
    sockets.push(server);
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    expect(await one(socketPath)).toMatchObject({ ok: false, code: 'not_regular_file', kind: 'socket' });
  });

  it('rejects a character device', async () => {
    expect(await one('/dev/null')).toMatchObject({ ok: false, path: '/dev/null', code: 'not_regular_file', kind: 'character_device' });
  });

  it('rejects a file over the 100 MB limit, naming the limit; accepts exactly 100 MB', async () => {
    // Sparse files: intake only stats and opens, it never reads.
    const exact = file('exact-100MB.bin', '');
    truncateSync(exact, MAX_ASYNC_FILE_SIZE);
    const over = file('over-100MB.bin', '');
    truncateSync(over, MAX_ASYNC_FILE_SIZE + 1);

    expect(await one(exact)).toMatchObject({ ok: true, size: MAX_ASYNC_FILE_SIZE });
    const item = await one(over);
    expect(item).toMatchObject({ ok: false, code: 'too_large', size: MAX_ASYNC_FILE_SIZE + 1 });
    expect(item).toMatchObject({ params: { cause: 'over_limit', path: over, size: MAX_ASYNC_FILE_SIZE + 1, limit: MAX_ASYNC_FILE_SIZE } });
    if (!item.ok) {
      expect(item.message).toContain('100 MB limit');
      expect(item.message).toContain('104,857,600 bytes');
      expect(item.message).toContain('not sent');
    }
  });

  it('honours a smaller limit', async () => {
    const p = file('eleven-bytes.txt', '01234567890');
    expect(await one(p)).toMatchObject({ ok: true });
    expect((await collect([p], { maxFileSize: 10 }))[0]).toMatchObject({ ok: false, code: 'too_large' });
  });
});

describe('expandPaths: unreadable files', () => {
  it('reports a file without read permission as unreadable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-intake-noread-'));
    try {
      chmodSync(dir, 0o755);
      const p = path.join(dir, 'no-read.txt');
      writeFileSync(p, 'secret');
      chmodSync(p, 0o000);
      const readable = path.join(dir, 'readable.txt');
      writeFileSync(readable, 'fine');
      chmodSync(readable, 0o644);
      const items = await expandAsUnprivileged([p, readable]);
      expect(items).toEqual([
        expect.objectContaining({ ok: false, path: p, code: 'unreadable', message: `${p} cannot be read: permission denied.` }),
        expect.objectContaining({ ok: true, path: readable }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the user's own files: readable exactly when the owner's read bit is set, whatever the group and other bits (intake asks only when it is not)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-intake-owner-'));
    try {
      chmodSync(dir, 0o755);
      const uid = process.getuid?.() === 0 ? 65534 : (process.getuid?.() ?? 0);
      const modes = fc.sample(fc.integer({ min: 0, max: 0o777 }), { numRuns: 24, seed: 26 });
      const paths = modes.map((mode, i) => {
        const p = path.join(dir, `mode-${i}-${mode.toString(8)}.txt`);
        writeFileSync(p, 'content');
        if (uid !== process.getuid?.()) chownSync(p, uid, uid);
        chmodSync(p, mode);
        return p;
      });
      const items = await expandAsUnprivileged(paths);
      expect(items.map((item) => [item.path, item.ok])).toEqual(paths.map((p, i) => [p, (modes[i]! & 0o400) !== 0]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a file that even root may not read as unreadable (/proc/sys write-only entry)', async (context) => {
    const writeOnly = await unreadableFile();
    if (writeOnly === null) return context.skip(`${WRITE_ONLY_FILE} is missing or readable here`);
    expect(await one(writeOnly)).toMatchObject({ ok: false, code: 'unreadable' });
  });
});

describe('expandPaths: symbolic links', () => {
  it('scans a link to a file as its target', async () => {
    const target = file('links/target.txt', 'content');
    const link = path.join(root, 'links/to-target');
    symlinkSync(target, link);
    const item = await one(link);
    expect(item).toMatchObject({ ok: true, path: link, realPath: target, size: 7, ino: statSync(target).ino });
  });

  it('reports a broken link with its target', async () => {
    const link = path.join(root, 'links/broken');
    symlinkSync(path.join(root, 'links/nowhere.txt'), link);
    const item = await one(link);
    expect(item).toMatchObject({ ok: false, code: 'broken_link' });
    if (!item.ok) expect(item.message).toContain('nowhere.txt');
  });

  it('reports a link loop', async () => {
    const a = path.join(root, 'links/loop-a');
    const b = path.join(root, 'links/loop-b');
    symlinkSync(b, a);
    symlinkSync(a, b);
    expect(await one(a)).toMatchObject({ ok: false, code: 'symlink_loop' });
    const self = path.join(root, 'links/self');
    symlinkSync(self, self);
    expect(await one(self)).toMatchObject({ ok: false, code: 'symlink_loop' });
  });

  it('follows a link to a folder but not back into a folder it is already inside', async () => {
    const tree = path.join(root, 'looping-tree');
    file('looping-tree/a/one.txt');
    file('looping-tree/b/two.txt');
    symlinkSync(tree, path.join(tree, 'a', 'up')); // leads back to an ancestor
    symlinkSync(path.join(tree, 'b'), path.join(tree, 'a', 'to-b')); // a second way to b
    const items = await collect([tree]);
    const accepted = items.filter((item) => item.ok).map((item) => path.basename(item.path));
    expect(accepted.sort()).toEqual(['one.txt', 'two.txt']);
    const loops = items.filter((item) => !item.ok);
    expect(loops).toEqual([expect.objectContaining({ code: 'symlink_loop', path: path.join(tree, 'a', 'up') })]);
  });

  it('yields a file reached through a link and directly only once', async () => {
    const real = file('twice/real.txt', 'same');
    symlinkSync(real, path.join(root, 'twice/link.txt'));
    const items = await collect([path.join(root, 'twice'), real]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ ok: true, ino: statSync(real).ino });
  });
});

describe('expandPaths: links met while walking a folder', () => {
  /** A folder to drop, and a folder beside it that was not chosen (with a secret in it). */
  function layout(name: string) {
    const chosen = path.join(root, name, 'chosen');
    const outside = path.join(root, name, 'elsewhere');
    mkdirSync(chosen, { recursive: true });
    const secret = file(path.join(name, 'elsewhere', 'id_rsa'), 'PRIVATE KEY');
    return { chosen, outside, secret };
  }
  const sentence = (link: string, target: string) =>
    `Not scanned: ${link} is a symbolic link to ${target}, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.`;

  it('skips a link to a file outside the folder, with the link, its real target and the folder; the target is not listed', async () => {
    const { chosen, secret } = layout('out-file');
    const kept = file('out-file/chosen/notes.txt', 'notes');
    const link = path.join(chosen, 'innocent.txt');
    symlinkSync(secret, link);
    const relative = path.join(chosen, 'relative.txt');
    symlinkSync(path.join('..', 'elsewhere', 'id_rsa'), relative); // out through ..
    const items = await collect([chosen]);
    expect(items.filter((item) => item.ok).map((item) => item.path)).toEqual([kept]);
    const folder = realpathSync(chosen);
    const target = realpathSync(secret);
    expect(items.filter((item) => !item.ok).sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { ok: false, excluded: true, path: link, code: 'link_outside', message: sentence(link, target), params: { path: link, target, folder } },
      { ok: false, excluded: true, path: relative, code: 'link_outside', message: sentence(relative, target), params: { path: relative, target, folder } },
    ]);
  });

  it('does not look at what a link out of the folder leads to: a named pipe there is not even told apart from a file, and nothing blocks', { timeout: 10_000 }, async () => {
    const { chosen, outside } = layout('out-fifo');
    const fifo = path.join(outside, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    symlinkSync(fifo, path.join(chosen, 'looks-like-a-file.txt'));
    const items = await collect([chosen]);
    // Not "a named pipe" (which a stat of the target would say, as it does for a link inside): the target was never looked at.
    expect(items).toEqual([expect.objectContaining({ ok: false, code: 'link_outside', params: expect.objectContaining({ target: realpathSync(fifo) }) })]);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('lists a link to a folder outside once, and nothing under it', async () => {
    const { chosen, outside } = layout('out-folder');
    file('out-folder/elsewhere/deep/more.txt');
    file('out-folder/chosen/kept.txt');
    const link = path.join(chosen, 'ssh');
    symlinkSync(outside, link);
    const items = await collect([chosen]);
    expect(items.filter((item) => item.ok).map((item) => path.basename(item.path))).toEqual(['kept.txt']);
    expect(items.filter((item) => !item.ok)).toEqual([expect.objectContaining({ path: link, code: 'link_outside', params: expect.objectContaining({ target: realpathSync(outside) }) })]);
    expect(items.some((item) => item.path.startsWith(link + path.sep))).toBe(false);
  });

  it('a folder next to the chosen one whose name starts the same is outside too', async () => {
    const { chosen } = layout('prefix');
    const sibling = file('prefix/chosen-2/file.txt');
    symlinkSync(sibling, path.join(chosen, 'to-sibling'));
    expect(await collect([chosen])).toEqual([expect.objectContaining({ ok: false, code: 'link_outside' })]);
  });

  it('follows a link to a file inside the folder (listed once) and to a folder inside it', async () => {
    const { chosen } = layout('inside');
    const real = file('inside/chosen/real.txt', 'real');
    const nested = file('inside/chosen/sub/nested.txt', 'nested');
    symlinkSync(real, path.join(chosen, 'a-link.txt'));
    symlinkSync(path.join('..', 'real.txt'), path.join(chosen, 'sub', 'up-link.txt')); // relative, stays inside
    symlinkSync(path.join(chosen, 'sub'), path.join(chosen, 'alias'));
    const items = await collect([chosen]);
    expect(items.every((item) => item.ok)).toBe(true);
    expect(items.map((item) => item.ok && item.ino).sort()).toEqual([statSync(real).ino, statSync(nested).ino].sort());
  });

  it('keeps the reasons of a broken link and a link loop met in the folder', async () => {
    const { chosen, outside } = layout('broken');
    symlinkSync(path.join(outside, 'nowhere.txt'), path.join(chosen, 'broken'));
    symlinkSync(path.join(chosen, 'loop-b'), path.join(chosen, 'loop-a'));
    symlinkSync(path.join(chosen, 'loop-a'), path.join(chosen, 'loop-b'));
    const items = await collect([chosen]);
    expect(items.map((item) => [path.basename(item.path), !item.ok && item.code]).sort()).toEqual([
      ['broken', 'broken_link'],
      ['loop-a', 'symlink_loop'],
      ['loop-b', 'symlink_loop'],
    ]);
  });

  it('follows a link named directly, wherever it leads: to a file, and to a folder it then walks', async () => {
    const { chosen, outside, secret } = layout('named');
    const fileLink = path.join(chosen, 'key-link');
    symlinkSync(secret, fileLink);
    const folderLink = path.join(chosen, 'folder-link');
    symlinkSync(outside, folderLink);
    expect(await one(fileLink)).toMatchObject({ ok: true, path: fileLink, realPath: realpathSync(secret) });
    // The named folder is where its links may lead: inside it, the secret is a plain file.
    expect(await collect([folderLink])).toEqual([expect.objectContaining({ ok: true, path: path.join(folderLink, 'id_rsa') })]);
  });

  it('measures a named folder reached through a link by its real path', async () => {
    const { chosen } = layout('through-link');
    const real = file('through-link/chosen/real.txt');
    symlinkSync(real, path.join(chosen, 'absolute-link.txt')); // by the real path
    const alias = path.join(root, 'through-link', 'alias');
    symlinkSync(chosen, alias);
    const items = await collect([alias]);
    expect(items).toEqual([expect.objectContaining({ ok: true, ino: statSync(real).ino })]);
  });

  it('with `within` (a rescan of a link from its folder), a named link is followed only into that folder', async () => {
    const { chosen, secret } = layout('within');
    const inside = file('within/chosen/inside.txt');
    const out = path.join(chosen, 'out');
    const ok = path.join(chosen, 'ok');
    symlinkSync(secret, out);
    symlinkSync(inside, ok);
    const within = realpathSync(chosen);
    expect(await collect([out], { within })).toEqual([expect.objectContaining({ ok: false, path: out, code: 'link_outside', params: { path: out, target: realpathSync(secret), folder: within } })]);
    expect(await collect([ok], { within })).toEqual([expect.objectContaining({ ok: true, path: ok, realPath: realpathSync(inside) })]);
  });
});

describe('expandPaths: folders', () => {
  it('expands nested folders depth first and reports what it cannot use', async () => {
    const tree = path.join(root, 'tree');
    const expected = ['tree/a.txt', 'tree/sub/b.txt', 'tree/sub/deeper/c.txt', 'tree/sub/deeper/deepest/d.txt', 'tree/other/e.txt'].map((p) => file(p));
    mkdirSync(path.join(tree, 'empty-folder'));
    spawnSync('mkfifo', [path.join(tree, 'sub', 'fifo')]);
    symlinkSync('/dev/null', path.join(tree, 'null-link'));
    const items = await collect([tree]);
    expect(items.filter((item) => item.ok).map((item) => item.path).sort()).toEqual(expected.sort());
    // A link to /dev/null leads out of the folder: skipped unfollowed, the device is never looked at.
    expect(items.filter((item) => !item.ok).map((item) => [path.relative(tree, item.path), !item.ok && item.code]).sort()).toEqual([
      ['null-link', 'link_outside'],
      ['sub/fifo', 'not_regular_file'],
    ]);
  });

  it('handles hostile and unusual file names', async () => {
    const names = [
      'with space.txt',
      `it's "quoted".txt`,
      'new\nline.txt',
      'tab\tand,comma.txt',
      'emoji 😀🦠.txt',
      'مرحبا\u202Etxt.exe', // right-to-left text with an override character
      'a'.repeat(251) + '.txt', // 255 bytes
      '😀'.repeat(63) + 'abc', // 255 bytes of UTF-8
      '-starts-with-dash',
      '=formula()',
    ];
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    const dir = path.join(root, 'names');
    const paths = names.map((name) => file(path.join('names', name), name));
    const items = await collect([dir]);
    expect(items.every((item) => item.ok)).toBe(true);
    expect(items.map((item) => item.path).sort()).toEqual(paths.sort());
    // Each also works when handed over directly.
    for (const p of paths) expect(await one(p)).toMatchObject({ ok: true, path: p, size: Buffer.byteLength(path.basename(p)) });
  });

  it('follows a deep path', async () => {
    const segments = Array.from({ length: 30 }, (_, i) => `level-${i}-${'d'.repeat(90)}`);
    const deep = file(path.join('deep', ...segments, 'bottom.txt'));
    expect(deep.length).toBeGreaterThan(2800);
    const items = await collect([path.join(root, 'deep')]);
    expect(items).toEqual([expect.objectContaining({ ok: true, path: deep })]);
  });

  it('streams 10,000 files from one folder', async () => {
    const dir = path.join(root, 'many');
    mkdirSync(dir);
    for (let i = 0; i < 10_000; i++) writeFileSync(path.join(dir, `f${i}.txt`), '');
    let count = 0;
    for await (const item of expandPaths([dir])) {
      expect(item.ok).toBe(true);
      count += 1;
    }
    expect(count).toBe(10_000);
  });

  it('stops with an AbortError when aborted, and closes the listing', async () => {
    const controller = new AbortController();
    const seen: IntakeItem[] = [];
    const run = async () => {
      for await (const item of expandPaths([path.join(root, 'many')], { signal: controller.signal })) {
        seen.push(item);
        if (seen.length === 3) controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(3);
  });

  it('reports a folder it cannot list and goes on with the rest', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-intake-locked-'));
    try {
      chmodSync(dir, 0o755);
      const locked = path.join(dir, 'locked');
      mkdirSync(locked);
      writeFileSync(path.join(locked, 'x.txt'), 'x');
      chmodSync(locked, 0o700);
      const after = path.join(dir, 'after.txt');
      writeFileSync(after, 'y');
      chmodSync(after, 0o644);
      const items = await expandAsUnprivileged([locked, after]);
      expect(items).toEqual([
        expect.objectContaining({ ok: false, path: locked, code: 'unreadable' }),
        expect.objectContaining({ ok: true, path: after }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('expandPaths: excluded folders', () => {
  /** Excludes folders named node_modules, and records every folder it was asked about. */
  function excluder() {
    const asked: string[] = [];
    const excludedFolder = (folder: string) => {
      asked.push(folder);
      return path.basename(folder) === 'node_modules' ? { code: 'excluded_glob', message: `excluded: ${folder}` } : null;
    };
    return { asked, excludedFolder };
  }

  it('lists an excluded folder once and never walks into it', async () => {
    const app = path.join(root, 'excluded', 'app');
    const kept = [file('excluded/app/src/index.js'), file('excluded/app/README.md')];
    for (let i = 0; i < 50; i++) file(`excluded/app/node_modules/pkg-${i}/lib/index.js`);
    // The same folder again through a link (whichever is met first is listed): still one item.
    const modules = path.join(app, 'node_modules');
    const link = path.join(app, 'src', 'node_modules');
    symlinkSync(modules, link);
    const { asked, excludedFolder } = excluder();
    const items = await collect([app], { excludedFolder });
    expect(items.filter((item) => item.ok).map((item) => item.path).sort()).toEqual(kept.sort());
    const excluded = items.filter((item) => !item.ok);
    expect(excluded).toEqual([{ ok: false, excluded: true, path: expect.any(String), code: 'excluded_glob', message: `excluded: ${excluded[0]?.path}` }]);
    expect([modules, link]).toContain(excluded[0]?.path);
    expect(asked.filter((folder) => folder.startsWith(modules + path.sep) || folder.startsWith(link + path.sep))).toEqual([]);
  });

  it('an excluded folder named directly is one item; a file named directly is not a folder question', async () => {
    const modules = path.join(root, 'excluded', 'app', 'node_modules');
    const inside = path.join(modules, 'pkg-0', 'lib', 'index.js');
    const { excludedFolder } = excluder();
    expect(await collect([modules], { excludedFolder })).toEqual([{ ok: false, excluded: true, path: modules, code: 'excluded_glob', message: `excluded: ${modules}` }]);
    expect(await collect([inside], { excludedFolder })).toEqual([expect.objectContaining({ ok: true, path: inside })]);
  });

  it('without the option every folder is walked', async () => {
    const items = await collect([path.join(root, 'excluded', 'app')]);
    expect(items.filter((item) => item.ok && item.path.includes(`${path.sep}node_modules${path.sep}`))).toHaveLength(50);
  });
});

/**
 * Runs expandPaths as a user without special rights. Root may read anything, so
 * as root the check runs in a child process as `nobody` (uid 65534); the files
 * must then be reachable by others (the test makes them so).
 */
async function expandAsUnprivileged(paths: string[]): Promise<IntakeItem[]> {
  if (process.getuid?.() !== 0) return collect(paths);
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'expand-to-json.ts');
  const output = await runAs(65534, script, paths);
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as IntakeItem);
}

function runAs(uid: number, script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { uid, gid: uid, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}
