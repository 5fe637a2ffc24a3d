// What a `verdict scan` on a clamd loads before it scans (issue 26: the CLI's start counts in a rescan of an
// unchanged tree): a real `bin/verdict.mjs scan` child, with a module hook that notes every file
// each thread loads. undici (HTTP to a remote service, VirusTotal, feeds, webhooks) loads at its
// first use, never for a local scan, on any thread; the service's thread starts before the app's
// modules load, and is the one the scan uses; the local service's HTTP server loads on that thread
// only (the main thread loads it when the thread cannot start).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { runNode } from '../../support/node-child.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let clamd: RunningClamd | null;

beforeAll(async () => {
  dir = await tempDir('verdict-scan-start-');
  clamd = await startClamd();
}, 60_000);
afterAll(async () => {
  await clamd?.stop();
  await dir?.remove();
});

it('a local scan never loads undici, on any of its threads, nor the service’s HTTP server on the main thread', async ({ skip }) => {
  if (!clamd) return skip();
  const loaded = join(dir.path, 'loaded.txt');
  const hook = join(dir.path, 'note-loads.mjs');
  // --import runs in every thread (workers inherit execArgv), so each thread notes its own loads.
  await writeFile(
    hook,
    `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(loaded)}, threadId + ' ' + url + '\\n'); return next(url, context); } });
`,
  );
  const file = join(dir.path, 'hello.txt');
  await writeFile(file, 'hello\n');
  const run = await runNode(['--import', pathToFileURL(hook).href, join(ROOT, 'bin/verdict.mjs'), 'scan', '--clamd', `unix:${clamd.socketPath}`, '--data-dir', join(dir.path, 'data'), file], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, LANG: 'C.UTF-8', LC_ALL: '' },
    timeoutMs: 90_000,
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/hello\.txt/);
  const lines = (await readFile(loaded, 'utf8')).split('\n').filter(Boolean);
  const urls = lines.map((line) => line.slice(line.indexOf(' ') + 1));
  const onMainThread = lines.filter((line) => line.startsWith('0 ')).map((line) => line.slice(2));
  // The hook saw the app (and the service thread's own entry): it was in force.
  expect(urls.some((url) => url.includes('/electron/cli/scan.ts'))).toBe(true);
  expect(urls.some((url) => url.includes('/electron/local-service/thread/'))).toBe(true);
  expect(urls.filter((url) => /\/node_modules\/undici\//.test(url))).toEqual([]);
  expect(urls.some((url) => url.endsWith('/electron/local-service/server.ts'))).toBe(true);
  expect(onMainThread.filter((url) => /\/electron\/local-service\/(server|http\/)|\/node_modules\/busboy\//.test(url))).toEqual([]);
  // The service's thread started before the app's modules loaded (warm-thread.ts) is the one the scan used: one such thread.
  expect(urls.filter((url) => url.endsWith('/electron/local-service/thread/service-thread.ts'))).toHaveLength(1);
  expect(urls.indexOf(urls.find((url) => url.endsWith('/electron/local-service/thread/warm-thread.ts'))!)).toBeLessThan(urls.findIndex((url) => url.endsWith('/electron/core/create-core.ts')));
});
