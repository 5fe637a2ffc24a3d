// The `watch` CLI as a user runs it (a real `node electron/cli/watch.ts` process),
// issue 7: a damaged or newer settings file is reported on stderr as `scan` does,
// and `--service`, its key and the other arguments are checked before anything
// starts (the data directory is not even created). Watching itself: test/electron/watch/watch-cli.test.ts.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../scans/harness.ts';

const CLI = join(import.meta.dirname, '..', '..', '..', 'electron', 'cli', 'watch.ts');

let dir: Awaited<ReturnType<typeof tempDir>>;
let inbox: string;
const running = new Set<ChildProcessWithoutNullStreams>();

beforeAll(async () => {
  dir = await tempDir('verdict-watch-cli-');
  inbox = join(dir.path, 'inbox');
  await mkdir(inbox);
});
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});
afterAll(async () => {
  await dir?.remove();
});

interface Run {
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
  child: ChildProcessWithoutNullStreams;
}

function watch(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, VERDICT_KEYCHAIN_SERVICE: `verdict-watch-cli-test-${process.pid}`, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return { stdout: () => stdout, stderr: () => stderr, exit, child };
}

/** Starts watching with a prepared settings file; stops with SIGTERM once the folder is watched. */
async function watchWithSettings(name: string, settings: string): Promise<{ stderr: string; code: number | null; dataDir: string }> {
  const dataDir = join(dir.path, name);
  await mkdir(dataDir);
  await writeFile(join(dataDir, 'settings.json'), settings);
  const run = watch(['--data-dir', dataDir, '--engine', 'builtin', inbox]);
  await until(() => run.stderr().includes('watching: '), `the folder to be watched (stderr: ${run.stderr()})`, 30_000);
  run.child.kill('SIGTERM');
  return { stderr: run.stderr(), code: await run.exit, dataDir };
}

describe('start-up warnings', () => {
  it('a damaged settings file: says so on stderr before watching, watches anyway, exits 0', async () => {
    const { stderr, code, dataDir } = await watchWithSettings('damaged', '{"language": "de", ');
    expect(code).toBe(0);
    const lines = stderr.split('\n');
    const warning = lines.findIndex((line) => /^Warning: The settings file was damaged \(it is not valid JSON.*set aside as settings\.json\.corrupt-/.test(line));
    expect(warning, stderr).toBeGreaterThanOrEqual(0);
    expect(warning).toBeLessThan(lines.findIndex((line) => line.startsWith('Watching 1 folder(s)')));
    expect((await readdir(dataDir)).some((file) => file.startsWith('settings.json.corrupt-'))).toBe(true);
  });

  it('a settings file of a newer version: says it is used read-only, and leaves it untouched', async () => {
    const content = JSON.stringify({ version: 999, language: 'de', somethingNew: true });
    const { stderr, code, dataDir } = await watchWithSettings('future', content);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^Warning: The settings file was written by a newer version of Verdict .*read-only/m);
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(content);
  });

  it('good settings: no warning', async () => {
    const { stderr, code } = await watchWithSettings('good', JSON.stringify({ version: 1, language: 'en' }));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/Warning:/);
  });
});

describe('memory', () => {
  it('the CLI checkpoints its history in its own commits: no WAL checkpoint thread (one V8 isolate less)', async () => {
    const dataDir = join(dir.path, 'threads');
    const run = watch(['--data-dir', dataDir, '--engine', 'builtin', inbox]);
    await until(() => run.stderr().includes('watching: '), `the folder to be watched (stderr: ${run.stderr()})`, 30_000);
    const tasks = `/proc/${run.child.pid}/task`;
    const names = await Promise.all((await readdir(tasks)).map(async (task) => (await readFile(join(tasks, task, 'comm'), 'utf8')).trim()));
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    // The process's threads were read (Node's own are always there); the checkpointer's name is cut to 15 bytes.
    expect(names).toContain('MainThread');
    expect(names.filter((name) => name.startsWith('verdict-wal'))).toEqual([]);
  });
});

describe('arguments checked before anything starts', () => {
  it.each([
    ['a --service that is not http(s)', ['--service', 'ftp://scan.example.com'], { VERDICT_API_KEY: 'a-good-key-0001' }, /--service: .*http/i],
    ['a --service with credentials', ['--service', 'https://admin:sk_pw_CANARY_41@scan.example.com'], { VERDICT_API_KEY: 'a-good-key-0001' }, /credential|user ?name|password/i],
    ['a key with whitespace', ['--service', 'https://scan.example.com'], { VERDICT_API_KEY: 'abc def-ghij-klmn' }, /VERDICT_API_KEY is not a valid key: .*whitespace/],
    ['a key with non-ASCII', ['--service', 'https://scan.example.com'], { VERDICT_API_KEY: 'schlüssel-0123456789' }, /VERDICT_API_KEY is not a valid key: .*non-ASCII/],
    ['an unknown engine', ['--engine', 'turbo'], {}, /--engine must be auto, clamd or builtin/],
    ['an unknown option', ['--servcie', 'https://scan.example.com'], {}, /Unknown option '--servcie'[\s\S]*Usage: npm run -s watch/],
  ])('%s: exit 2 with a clear message, nothing secret echoed, no data directory created', async (label, args, env, message) => {
    const dataDir = join(dir.path, `refused-${label.replace(/\W+/g, '-')}`);
    const run = watch(['--data-dir', dataDir, ...args, inbox], env);
    expect(await run.exit).toBe(2);
    expect(run.stderr()).toMatch(message);
    expect(run.stderr()).not.toMatch(/\n\s+at .+:\d+:\d+/);
    for (const secret of ['sk_pw_CANARY_41', 'abc def-ghij-klmn', 'schlüssel-0123456789']) expect(`${run.stdout()}${run.stderr()}`).not.toContain(secret);
    await expect(readdir(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--help prints the usage with the shared options and exits 0', async () => {
    const run = watch(['--help']);
    expect(await run.exit).toBe(0);
    expect(run.stderr()).toMatch(/Usage: npm run -s watch[\s\S]*--service URL[\s\S]*--data-dir DIR[\s\S]*--engine KIND[\s\S]*--existing/);
  });
});
