// The `watch` CLI against the real core and its built-in local service: files landing
// in a watched folder are scanned and printed in the `scan` CLI's formats.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runWatch } from '../../../electron/cli/watch.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { makeTempDir, waitFor } from './support/collector.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(): Promise<{ dataDir: string; inbox: string }> {
  const base = await makeTempDir('verdict-watch-cli-');
  cleanups.push(() => fs.rm(base, { recursive: true, force: true }));
  const inbox = path.join(base, 'inbox');
  await fs.mkdir(inbox);
  return { dataDir: path.join(base, 'data'), inbox };
}

function run(argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const exit = runWatch(argv, { stdout: (line) => void stdout.push(line), stderr: (line) => void stderr.push(line), env: {}, stopped });
  cleanups.push(async () => {
    stop();
    await exit;
  });
  /** A bounded wait that shows what the CLI said when it times out. */
  const until = (what: string, probe: () => boolean): Promise<true> =>
    waitFor(what, probe).catch((error: Error) => {
      throw new Error(`${error.message}\n--- stderr:\n${stderr.join('\n')}\n--- stdout:\n${stdout.join('\n')}`);
    });
  return { stdout, stderr, stop, exit, until };
}

it('prints a verdict line for each file that lands in the folder, as `scan` does', async () => {
  const { dataDir, inbox } = await setup();
  const cli = run(['--data-dir', dataDir, '--engine', 'builtin', inbox]);
  await cli.until('the folder to be watched', () => cli.stderr.some((line) => line.startsWith('watching: ')));
  await fs.writeFile(path.join(inbox, 'notes.txt'), 'just notes');
  await fs.mkdir(path.join(inbox, 'sub'));
  await fs.writeFile(path.join(inbox, 'sub', 'eicar.com'), EICAR_TEST_STRING);
  await fs.writeFile(path.join(inbox, 'half.zip.crdownload'), 'partial');
  await cli.until('two verdicts', () => cli.stdout.length >= 2);
  expect(cli.stdout).toEqual(
    expect.arrayContaining([
      expect.stringMatching(new RegExp(`^BASIC  ${path.join(inbox, 'notes.txt')}  \\(`)),
      expect.stringMatching(new RegExp(`^THREAT ${path.join(inbox, 'sub', 'eicar.com')}  \\(.*EICAR`)),
    ]),
  );
  cli.stop();
  expect(await cli.exit).toBe(0);
  expect(cli.stdout.some((line) => line.includes('crdownload'))).toBe(false);
});

it('prints JSON lines with --json and scans existing files with --existing', async () => {
  const { dataDir, inbox } = await setup();
  await fs.writeFile(path.join(inbox, 'already-here.txt'), 'old news');
  const cli = run(['--json', '--existing', '--data-dir', dataDir, '--engine', 'builtin', inbox]);
  await cli.until('a verdict', () => cli.stdout.length >= 1);
  const line = JSON.parse(cli.stdout[0]!) as { path: string; status: string; verdict: string; sha256: string };
  expect(line).toMatchObject({ path: path.join(inbox, 'already-here.txt'), status: 'completed', safe: true, verdict: 'basic-only' });
  expect(line.sha256).toMatch(/^[0-9a-f]{64}$/);
});

it('refuses a file as a folder, and no folders at all', async () => {
  const { dataDir, inbox } = await setup();
  await fs.writeFile(path.join(inbox, 'file.txt'), 'x');
  expect(await run(['--data-dir', dataDir, path.join(inbox, 'file.txt')]).exit).toBe(2);
  expect(await run(['--data-dir', dataDir]).exit).toBe(2);
});

it('runs until SIGINT and then exits 0', async () => {
  const { dataDir, inbox } = await setup();
  const cli = path.resolve('electron/cli/watch.ts');
  const child = spawn(process.execPath, [cli, '--data-dir', dataDir, '--engine', 'builtin', inbox], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  });
  await waitFor(`the child to watch (stderr: ${stderr})`, () => stderr.includes('watching: '));
  await fs.writeFile(path.join(inbox, 'landed.txt'), 'landed');
  await waitFor('its verdict', () => stdout.includes(`BASIC  ${path.join(inbox, 'landed.txt')}`));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(stderr).toContain('Stopping');
});

it('applies the global exclusions from the settings: an excluded folder is listed once as skipped, nothing inside it is scanned', async () => {
  const { dataDir, inbox } = await setup();
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ version: 1, exclusions: { globs: ['node_modules'] } }));
  const cli = run(['--data-dir', dataDir, '--engine', 'builtin', inbox]);
  await cli.until('the folder to be watched', () => cli.stderr.some((line) => line.startsWith('watching: ')));
  await fs.mkdir(path.join(inbox, 'node_modules', 'pkg'), { recursive: true });
  await fs.writeFile(path.join(inbox, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;');
  await fs.writeFile(path.join(inbox, 'readme.txt'), 'read me');
  await cli.until('a verdict and a skipped folder', () => cli.stdout.length >= 2);
  expect(cli.stdout).toEqual(
    expect.arrayContaining([
      expect.stringMatching(new RegExp(`^BASIC  ${path.join(inbox, 'readme.txt')}  \\(`)),
      expect.stringMatching(new RegExp(`^SKIP   ${path.join(inbox, 'node_modules')}  \\(.*node_modules`)),
    ]),
  );
  expect(cli.stdout.some((line) => line.includes('index.js'))).toBe(false);
});
