// Bad input through the `scan` CLI (issue 7): real `node electron/cli/scan.ts`
// processes. Each bad input gets its own clear line (a code and a message in
// --json), the good files in the same run scan normally, the exit code is 2,
// and nothing crashes (no stack trace). Then the limits (10 MB in sync mode,
// 100 MB) on both sides, a broken link, a deep path, a file that vanishes after
// it was queued and one that changes during its upload: one run each, next to a
// good file, each with its own line and the run's exit code. Also: a file
// without read permission (the CLI runs as `nobody`), remote base URLs that are
// not usable, an API key with whitespace or non-ASCII, and a settings file that
// is corrupt or newer. A folder with a link out of it: the link is a SKIP line.
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, realpathSync } from 'node:fs';
import { chmod, chown, mkdir, open, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ASYNC_FILE_SIZE, MAX_SYNC_FILE_SIZE } from '../../../shared/service-contract/limits.ts';
import { startLocalService, type LocalService } from '../../../electron/local-service/server.ts';
import { DEFAULT_CONCURRENCY } from '../../../electron/scans/pipeline.ts';
import { startFaultProxy } from '../../support/fault-proxy.ts';
import { GatedEngine } from '../local-service/harness.ts';
import { tempDir, until } from '../scans/harness.ts';
import { MiB } from '../../support/process-memory.ts';

const CLI = join(import.meta.dirname, '../../../electron/cli/scan.ts');
const KEY = 'reliability-cli-key-0001';

interface CliRun {
  code: number | null;
  /** Killed because it did not end within the run's time limit. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** --json lines by path. */
  lines: Map<string, Record<string, unknown>>;
}

function runCli(args: string[], options: { env?: Record<string, string>; uid?: number; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, VERDICT_KEYCHAIN_SERVICE: `verdict-reliability-cli-${process.pid}`, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM'); // the CLI then prints what it has and exits
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    }, options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const lines = new Map<string, Record<string, unknown>>();
      if (args.includes('--json')) {
        for (const line of stdout.split('\n').filter(Boolean)) {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          lines.set(String(parsed.path), parsed);
        }
      }
      resolve({ code, timedOut, stdout, stderr, lines });
    });
  });
}

const noCrash = (run: CliRun) => {
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(run.stderr).not.toMatch(/Unhandled|TypeError|ReferenceError/);
};

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: LocalService;
let htmlServer: Server;
let htmlUrl: string;

beforeAll(async () => {
  dir = await tempDir('verdict-reliability-cli-');
  // The built-in engine: a file it finds nothing in reads `basic-only` (BASIC, exit 3), never clean.
  service = await startLocalService({ apiKeys: [KEY], dataDir: join(dir.path, 'service'), engine: { kind: 'builtin' } });
  // A server that answers every request with a web page (a wrong base URL, a captive portal).
  htmlServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><body><h1>Welcome to our homepage</h1></body></html>');
  });
  await new Promise<void>((resolve) => htmlServer.listen(0, '127.0.0.1', resolve));
  htmlUrl = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => htmlServer?.close(resolve));
  await service?.close();
  await dir?.remove();
});

describe('one CLI run over good and bad inputs', () => {
  it('prints one clear line per file, scans the good ones, exits 2', async () => {
    const root = join(dir.path, 'mixed');
    await mkdir(join(root, 'folder'), { recursive: true });
    const p = (name: string) => join(root, name);
    await writeFile(p('good.txt'), 'good\n');
    await writeFile(p('empty.txt'), '');
    await writeFile(p('folder/inside.txt'), 'inside\n');
    execFileSync('mkfifo', [p('fifo')]);
    const socket = createNetServer();
    await new Promise<void>((resolve) => socket.listen(p('socket'), resolve));
    await symlink(p('loop-b'), p('loop-a'));
    await symlink(p('loop-a'), p('loop-b'));
    await writeFile(join(dir.path, 'outside.txt'), 'outside\n');
    await symlink(join(dir.path, 'outside.txt'), p('link-out'));
    const odd = ['sp ace.txt', 'qu"ote\'s.txt', 'new\nline.txt', '🦠 emoji.txt', 'مرحبا.txt', 'rlo\u202Etxt.exe', `${'x'.repeat(251)}.txt`];
    for (const name of odd) await writeFile(p(name), name);

    try {
      const inputs = [p('good.txt'), p('empty.txt'), p('folder'), p('fifo'), p('socket'), '/dev/null', p('loop-a'), p('link-out'), p('missing.txt'), ...odd.map(p)];
      const run = await runCli(['--json', '--mode', 'sync', '--engine', 'builtin', '--data-dir', join(dir.path, 'cli-data-1'), ...inputs]);
      noCrash(run);
      expect(run.code).toBe(2);
      const line = (path: string) => {
        const found = run.lines.get(path);
        if (!found) throw new Error(`no line for ${JSON.stringify(path)} in:\n${run.stdout}`);
        return found;
      };
      const clean = (path: string) => expect(line(path), path).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null });
      const failed = (path: string, code: string) => {
        expect(line(path), path).toMatchObject({ status: 'failed', verdict: 'could-not-scan', error: { code } });
        expect(String((line(path).error as { message: string }).message).length).toBeGreaterThan(10);
      };
      clean(p('good.txt'));
      clean(p('empty.txt'));
      clean(p('folder/inside.txt'));
      failed(p('fifo'), 'not_regular_file');
      failed(p('socket'), 'not_regular_file');
      failed('/dev/null', 'not_regular_file');
      failed(p('loop-a'), 'symlink_loop');
      clean(p('link-out'));
      failed(p('missing.txt'), 'not_found');
      for (const name of odd) clean(p(name));
      expect(run.lines.size).toBe(inputs.length);

      // The plain format keeps one line per file, even for a name with a newline.
      const plain = await runCli(['--engine', 'builtin', '--data-dir', join(dir.path, 'cli-data-1'), p('new\nline.txt'), p('good.txt'), p('fifo')]);
      expect(plain.stdout.trim().split('\n')).toHaveLength(3);
      expect(plain.stdout).toContain('new⟨U+000A⟩line.txt');
      expect(plain.stdout).toMatch(/^ERROR +.*fifo +\(.+\)$/m);
      expect(plain.code).toBe(2);
    } finally {
      await new Promise((resolve) => socket.close(resolve));
    }
  });
});

describe('a folder with a link out of it', () => {
  it('prints SKIP for the link with why, sends nothing for it, scans the rest and exits 2; the link named by itself is scanned', async () => {
    const root = join(dir.path, 'link-out-folder');
    await mkdir(root);
    const good = join(root, 'good.txt');
    await writeFile(good, `good ${Math.random()}\n`);
    const secret = join(dir.path, 'secret-outside.txt');
    await writeFile(secret, `a secret ${Math.random()}\n`);
    const link = join(root, 'harmless.txt');
    await symlink(secret, link);
    const env = { VERDICT_API_KEY: KEY };

    const plain = await runCli(['--data-dir', join(dir.path, 'link-out-data-1'), '--service', service.url, root], { env });
    noCrash(plain);
    expect(plain.code).toBe(2);
    expect(plain.stdout.trim().split('\n').sort()).toEqual([
      `BASIC  ${good}  (basic checks only (EICAR test file only); not a full scan: ClamAV was not available)`,
      `SKIP   ${link}  (Not scanned: ${link} is a symbolic link to ${realpathSync(secret)}, outside the folder you chose; Verdict does not follow it. Add the target itself to scan it.)`,
    ]);

    const json = await runCli(['--json', '--data-dir', join(dir.path, 'link-out-data-2'), '--service', service.url, root], { env });
    expect(json.code).toBe(2);
    expect(json.lines.get(link)).toMatchObject({ status: 'skipped', verdict: 'skipped', scanId: null, sha256: null, error: { code: 'link_outside', params: { path: link, target: realpathSync(secret), folder: realpathSync(root) } } });

    // Named on the command line, the same link is followed: the user chose it.
    const named = await runCli(['--json', '--data-dir', join(dir.path, 'link-out-data-3'), '--service', service.url, link], { env });
    expect(named.code).toBe(3);
    expect(named.lines.get(link)).toMatchObject({ status: 'completed', verdict: 'basic-only', sha256: await sha256Of(secret) });
  });
});

const sha256Of = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

/** A sparse file of exactly `size` bytes that starts with `marker` (distinct content, nothing to write). */
async function sparseFile(path: string, size: number, marker = path): Promise<string> {
  const handle = await open(path, 'w');
  try {
    await handle.truncate(size);
    await handle.write(Buffer.from(marker), 0, Buffer.byteLength(marker), 0);
  } finally {
    await handle.close();
  }
  return path;
}

/** The scan as the service keeps it (execution mode, size), by id. */
async function serviceScan(id: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${service.url}/file-scans/${String(id)}`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

type Line = Record<string, unknown> & { error: { code: string; message: string } | null };

describe('limits and odd paths, one run each next to a good file', () => {
  let serial = 0;
  /** A folder with good.txt in it, and a data dir of its own (no verdict is reused between runs). */
  const setup = async () => {
    const root = join(dir.path, `hole-${++serial}`);
    await mkdir(root);
    const good = join(root, 'good.txt');
    await writeFile(good, `good ${serial} ${Math.random()}\n`);
    return { root, good, dataDir: join(dir.path, `hole-data-${serial}`) };
  };
  const expectGood = (run: CliRun, good: string) => expect(run.lines.get(good), good).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null });

  it.each([
    {
      label: 'exactly 10 MB in --mode sync: scanned in sync mode',
      make: (root: string) => sparseFile(join(root, 'exactly-10MB.bin'), MAX_SYNC_FILE_SIZE),
      check: async (line: Line) => {
        expect(line).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null });
        expect(await serviceScan(line.scanId)).toMatchObject({ execution_mode: 'sync', file_size: MAX_SYNC_FILE_SIZE });
      },
      exit: 3,
    },
    {
      label: '10 MB + 1 in --mode sync: sent asynchronously instead (the documented rule) and scanned',
      make: (root: string) => sparseFile(join(root, '10MB-plus-1.bin'), MAX_SYNC_FILE_SIZE + 1),
      check: async (line: Line) => {
        expect(line).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null });
        expect(await serviceScan(line.scanId)).toMatchObject({ execution_mode: 'async', file_size: MAX_SYNC_FILE_SIZE + 1 });
      },
      exit: 3,
    },
    {
      label: 'exactly 100 MB: scanned',
      make: (root: string) => sparseFile(join(root, 'exactly-100MB.bin'), MAX_ASYNC_FILE_SIZE),
      check: async (line: Line) => {
        expect(line).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null });
        expect(await serviceScan(line.scanId)).toMatchObject({ execution_mode: 'async', file_size: MAX_ASYNC_FILE_SIZE });
      },
      exit: 3,
    },
    {
      label: '100 MB + 1: refused before anything is sent, naming the limit',
      make: (root: string) => sparseFile(join(root, '100MB-plus-1.bin'), MAX_ASYNC_FILE_SIZE + 1),
      check: (line: Line) => {
        expect(line).toMatchObject({ status: 'failed', verdict: 'could-not-scan', scanId: null, error: { code: 'too_large' } });
        expect(line.error?.message).toMatch(/is 100\.0 MB \(104,857,601 bytes\), over the 100 MB limit \(104,857,600 bytes\); it was not sent\.$/);
      },
      exit: 2,
    },
    {
      label: 'a broken symbolic link: refused, naming where it points',
      make: async (root: string) => {
        await symlink(join(root, 'gone-away.txt'), join(root, 'broken-link'));
        return join(root, 'broken-link');
      },
      check: (line: Line) => {
        expect(line).toMatchObject({ status: 'failed', verdict: 'could-not-scan', error: { code: 'broken_link' } });
        expect(line.error?.message).toMatch(/symbolic link to .*gone-away\.txt that does not exist/);
      },
      exit: 2,
    },
    {
      label: 'a path 40 folders deep: scanned',
      make: async (root: string) => {
        let deep = root;
        for (let i = 0; i < 40; i++) deep = join(deep, `level-${String(i).padStart(2, '0')}-${'d'.repeat(10)}`);
        await mkdir(deep, { recursive: true });
        await writeFile(join(deep, 'deep.txt'), 'deep\n');
        return join(deep, 'deep.txt');
      },
      check: (line: Line) => expect(line).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null }),
      exit: 3,
    },
  ])('$label', async ({ make, check, exit }) => {
    const { root, good, dataDir } = await setup();
    const target = await make(root);
    const run = await runCli(['--json', '--mode', 'sync', '--data-dir', dataDir, '--service', service.url, target, good], { env: { VERDICT_API_KEY: KEY } });
    noCrash(run);
    const line = run.lines.get(target);
    if (!line) throw new Error(`no line for ${target} in:\n${run.stdout}\n${run.stderr}`);
    await check(line as Line);
    expectGood(run, good);
    expect(run.lines.size).toBe(2);
    expect(run.code).toBe(exit);
  });

  it('a file that vanishes after it was queued: not_found, saying so; the files around it scan', async () => {
    const { root, good, dataDir } = await setup();
    // Every upload slot holds a sync request the service answers only once its engine is released, so the victim
    // waits in the queue behind them.
    const engine = new GatedEngine();
    const gated = await startLocalService({ apiKeys: [KEY], dataDir: join(dir.path, 'gated-service'), engine, rateLimit: false });
    try {
      const blockers: string[] = [];
      for (let i = 0; i < DEFAULT_CONCURRENCY; i++) {
        blockers.push(join(root, `blocker-${i}.txt`));
        await writeFile(blockers[i]!, `blocker ${i} ${Math.random()}\n`);
      }
      const victim = join(root, 'vanishing.txt');
      await writeFile(victim, 'here now, gone soon\n');
      const running = runCli(['--json', '--mode', 'sync', '--data-dir', dataDir, '--service', gated.url, ...blockers, victim, good], { env: { VERDICT_API_KEY: KEY } });
      const rows = () => {
        if (!existsSync(join(dataDir, 'history.sqlite'))) return [];
        const db = new DatabaseSync(join(dataDir, 'history.sqlite'), { readOnly: true });
        try {
          return db.prepare('SELECT path, status, sha256, submitted_at AS submittedAt FROM scans').all() as Array<{ path: string; status: string; sha256: string | null; submittedAt: string | null }>;
        } catch {
          return []; // not created yet
        } finally {
          db.close();
        }
      };
      await until(() => rows().filter((r) => blockers.includes(r.path) && r.submittedAt !== null).length === blockers.length, 'every upload slot to hold a sent file', 30_000);
      // Still only queued: never fingerprinted, never sent.
      expect(rows().find((r) => r.path === victim)).toEqual({ path: victim, status: 'queued', sha256: null, submittedAt: null });
      await rm(victim);
      engine.release();
      const run = await running;
      noCrash(run);
      expect(run.lines.get(victim)).toMatchObject({ status: 'failed', verdict: 'could-not-scan', scanId: null, error: { code: 'not_found' } });
      expect((run.lines.get(victim) as Line).error?.message).toBe('The file is no longer there (moved or deleted). Add it again to scan it.');
      // The gated engine answers a plain "clean" (not the built-in engine's): those files read clean.
      for (const path of [...blockers, good]) expect(run.lines.get(path), path).toMatchObject({ status: 'completed', verdict: 'safe', error: null });
      expect(run.code).toBe(2);
    } finally {
      engine.release();
      await gated.close();
    }
  });

  it('a file that changes during its upload: sent again whole, the verdict is for what it holds now', async () => {
    const { root, good, dataDir } = await setup();
    const changing = await sparseFile(join(root, 'changing.bin'), 32 * MiB);
    const APPENDED = 'appended while it was being sent\n';
    const before = await sha256Of(changing);
    // The upload is held at its first MiB; meanwhile the file grows. The CLI's reader is far from the end (32 MiB,
    // at most a few MiB in socket buffers), so its check after the last byte sees the change.
    const proxy = await startFaultProxy(service.url);
    try {
      let held = false;
      proxy.addRule({
        method: 'POST',
        times: 1,
        headers: (h) => Number(h['content-length']) > 32 * MiB,
        fault: {
          kind: 'hold-upload',
          afterBytes: MiB,
          until: Promise.resolve(),
          onHeld: () => {
            held = true;
            appendFileSync(changing, APPENDED);
          },
        },
      });
      const run = await runCli(['--json', '--data-dir', dataDir, '--service', proxy.url, changing, good], { env: { VERDICT_API_KEY: KEY } });
      noCrash(run);
      expect(held).toBe(true);
      const after = await sha256Of(changing);
      expect(after).not.toBe(before);
      const line = run.lines.get(changing) as Line;
      expect(line).toMatchObject({ status: 'completed', verdict: 'basic-only', error: null, sha256: after });
      // Two uploads of it: the first cut before its end (the service answered nothing and kept nothing), the second whole.
      const uploads = proxy.requests.filter((r) => r.method === 'POST' && (r.contentLength ?? 0) > 32 * MiB);
      expect(uploads.map((r) => r.status)).toEqual([undefined, 202]);
      expect(await serviceScan(line.scanId)).toMatchObject({ file_hash: { sha256: after }, file_size: 32 * MiB + APPENDED.length });
      const byReference = await fetch(`${service.url}/file-scans/external-reference/${encodeURIComponent(String(line.externalReferenceId))}`, {
        headers: { authorization: `Bearer ${KEY}` },
      });
      expect(((await byReference.json()) as { id: string }).id).toBe(line.scanId);
      expectGood(run, good);
      expect(run.code).toBe(3);
    } finally {
      await proxy.close();
    }
  });
});

describe('a file without read permission', () => {
  it('run as an unprivileged user: unreadable, said clearly; the readable file next to it scans', async (context) => {
    if (process.getuid?.() !== 0) context.skip('needs root to switch to nobody');
    const root = join(dir.path, 'perm');
    await mkdir(root);
    await chmod(dir.path, 0o755);
    await chmod(root, 0o755);
    await writeFile(join(root, 'secret.txt'), 'not for you\n', { mode: 0o600 });
    await writeFile(join(root, 'open.txt'), 'for everyone\n', { mode: 0o644 });
    const dataDir = join(dir.path, 'nobody-data');
    await mkdir(dataDir);
    await chown(dataDir, 65534, 65534);
    const run = await runCli(['--json', '--engine', 'builtin', '--data-dir', dataDir, join(root, 'secret.txt'), join(root, 'open.txt')], {
      uid: 65534,
      env: { HOME: dataDir, XDG_DATA_HOME: dataDir },
    });
    noCrash(run);
    expect(run.stderr).not.toMatch(/Could not start/);
    expect(run.lines.get(join(root, 'secret.txt'))).toMatchObject({ status: 'failed', error: { code: 'unreadable' } });
    expect(String((run.lines.get(join(root, 'secret.txt'))?.error as { message: string }).message)).toMatch(/permission|read/i);
    expect(run.lines.get(join(root, 'open.txt'))).toMatchObject({ status: 'completed', verdict: 'basic-only' });
    expect(run.code).toBe(2);
  });
});

describe('remote base URLs that cannot work', () => {
  const file = () => join(dir.path, 'remote-probe.txt');
  beforeAll(async () => {
    await writeFile(file(), 'probe\n');
  });

  it('a server that answers HTML: a clear error per file, exit 2, no crash', async () => {
    const run = await runCli(['--json', '--data-dir', join(dir.path, 'cli-html'), '--service', htmlUrl, file()], { env: { VERDICT_API_KEY: KEY } });
    noCrash(run);
    expect(run.code).toBe(2);
    const line = run.lines.get(file());
    // Left queued for the next run, saying why: an unusable answer is retried (the reference looked up first), and the
    // CLI stops waiting once the file waits to be retried (GIVE_UP_REASONS), long before the pipeline's 5 tries would fail it.
    expect(line).toMatchObject({ status: 'queued', verdict: 'pending', pendingReason: 'retrying', error: { code: 'malformed_response' } });
    console.log(`HTML server → ${String(line?.status)}: ${JSON.stringify(line?.error)}; plain line: ${run.stdout.trim()}`);
    expect(String((line?.error as { message: string }).message)).toMatch(/JSON|HTML|not a File Scanning Service/i);
  });

  it.each([
    ['not http(s)', 'ftp://files.example.com/scan', /http/i],
    ['with credentials in it', 'http://admin:sk_pw_LEAKCANARY_77@127.0.0.1:1/', /credential|user ?name|password/i],
    ['not a URL at all', 'scan-server', /URL/i],
  ])('a base URL %s: exit 2 with a message that names the problem (and never the password)', async (_label, url, names) => {
    const run = await runCli(['--json', '--data-dir', join(dir.path, `cli-url-${_label.replace(/\W+/g, '-')}`), '--service', url, file()], { env: { VERDICT_API_KEY: KEY } });
    noCrash(run);
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toContain('sk_pw_LEAKCANARY_77');
    // Issue 7: "a clear error": the message names what is wrong with the address.
    expect(`${run.stdout}\n${run.stderr}`).toMatch(names);
  });

  it('an unreachable service (DNS failure), more files than upload slots: every file reported as not scanned yet, exit 2', async () => {
    const folder = join(dir.path, 'unreachable');
    await mkdir(folder);
    for (let i = 0; i < 5; i++) await writeFile(join(folder, `u${i}.txt`), `u${i}\n`);
    // The CLI stops waiting once every file states why it waits (after the client's retries, about 10 s here); the
    // time limit catches a run that would wait for ever.
    const run = await runCli(['--json', '--data-dir', join(dir.path, 'cli-unreachable'), '--service', 'http://verdict-does-not-exist.invalid', folder], {
      env: { VERDICT_API_KEY: KEY },
      timeoutMs: 45_000,
    });
    noCrash(run);
    const reasons = [...run.lines.values()].map((line) => line.pendingReason);
    console.log(`unreachable --service, 5 files: ${run.timedOut ? 'still running after 45 s (killed)' : `exit ${run.code}`}; pending reasons ${JSON.stringify(reasons)}`);
    // Issue 7: "DNS failure / unreachable host … pending reason stated": every row has one, and the CLI ends.
    expect(run.timedOut).toBe(false);
    expect(run.code).toBe(2);
    expect(reasons).toEqual(Array(5).fill('service_unreachable'));
  });

  it.each([
    ['whitespace inside', 'abc def-ghij-klmn'],
    ['non-ASCII', 'schlüssel-0123456789'],
    ['a control character', 'key-with-\u0007-bell-0001'],
  ])('an API key with %s: refused clearly before anything is sent, never echoed', async (_label, key) => {
    const run = await runCli(['--json', '--data-dir', join(dir.path, `cli-key-${_label.replace(/\W+/g, '-')}`), '--service', service.url, file()], { env: { VERDICT_API_KEY: key } });
    noCrash(run);
    expect(run.code).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toContain(key.trim());
    // Issue 7: rejected clearly, by the CLI before anything is sent (validateApiKey), saying what is wrong with it.
    expect(`${run.stdout}\n${run.stderr}`).toMatch(/space|whitespace|non-ASCII|control character|not a valid key/i);
    expect(`${run.stdout}\n${run.stderr}`).not.toMatch(/service rejected/i);
  });
});

describe('a settings file that is corrupt or from a newer version', () => {
  it.each([
    ['corrupt', '{"language": "de", '],
    ['not an object', '[1, 2, 3]'],
    ['of a future version', JSON.stringify({ version: 999, language: 'de', mode: 'sync', somethingNew: true })],
  ])('%s: the CLI starts, scans, and says so', async (label, content) => {
    const dataDir = join(dir.path, `cli-settings-${label.replace(/\W+/g, '-')}`);
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'settings.json'), content);
    await writeFile(join(dataDir, 'note.txt'), 'fine\n');
    const run = await runCli(['--json', '--engine', 'builtin', '--data-dir', dataDir, join(dataDir, 'note.txt')]);
    noCrash(run);
    expect(run.code).toBe(3);
    expect(run.lines.get(join(dataDir, 'note.txt'))).toMatchObject({ status: 'completed' });
    // The core noticed (its log says so) …
    const log = await readFile(join(dataDir, 'logs', 'core.log'), 'utf8');
    expect(log).toMatch(/settings file/i);
    if (label === 'of a future version') {
      expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(content); // never overwritten
    } else {
      expect((await readdir(dataDir)).some((name) => name.startsWith('settings.json.corrupt-'))).toBe(true);
    }
    // … and the CLI says so on stderr (issue 7), before it scans.
    const warning = label === 'of a future version' ? /^Warning: The settings file was written by a newer version of Verdict/m : /^Warning: The settings file was damaged/m;
    expect(run.stderr).toMatch(warning);
  });
});
