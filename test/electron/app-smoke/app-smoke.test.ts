// The built app, run as far as this machine allows: dist-electron/main.js, preload.cjs and
// dist/renderer from a fresh build, in Node 24, with `electron` resolved by a module hook to
// a run-time stand-in (electron-stand-in.ts): a Debian Chromium page served through the
// app's own verdict:// handler, the real preload, the real IPC handlers. The scenario
// (smoke-driver.ts) starts the app, drops EICAR on the window, sees its verdict, the tray
// and a notification, opens Settings and quits from the tray. Then this checks how it ended.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../packaging/build-app.ts';
import { writeEicar } from '../scans/harness.ts';

const HERE = import.meta.dirname;
const HOOK = `--import=${pathToFileURL(path.join(HERE, 'electron-hook.ts')).href}`;
// Chromium's notice that a <meta> CSP cannot carry frame-ancestors (the app's header does).
const META_CSP_NOTICE = "console: The Content Security Policy directive 'frame-ancestors' is ignored when delivered via a <meta> element.";

interface SmokeReport {
  startedMs?: number;
  verdict?: string;
  tray?: { icon: string; tooltip: string };
  notifications?: string[];
  settings?: { startAtLogin: boolean };
  workerThreads?: number;
  quitting?: boolean;
  failure?: string;
  exitCode: number;
  problems: string[];
  errorBoxes: string[];
}

let app: BuiltApp;
let home: string;
let report: SmokeReport;
let exitCode: number | null;
let output = '';

beforeAll(async () => {
  app = await buildApp();
  home = path.join(app.dir, 'home');
  fs.mkdirSync(home);
  const eicar = await writeEicar(path.join(app.dir, 'eicar.com'));
  const child = spawn(process.execPath, [HOOK, path.join(HERE, 'smoke-driver.ts')], {
    cwd: app.dir,
    env: { ...process.env, STAND_IN_APP: app.dir, STAND_IN_HOME: home, SMOKE_DROP: eicar, VITE_DEV_SERVER_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
  exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(timer);
  const line = output.split('\n').find((text) => text.startsWith('SMOKE_REPORT '));
  if (!line) throw new Error(`the app printed no report:\n${output}`);
  report = JSON.parse(line.slice('SMOKE_REPORT '.length)) as SmokeReport;
}, 200_000);
afterAll(() => app?.remove());

const logLines = (name: string) =>
  fs
    .readFileSync(path.join(home, 'logs', name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { level: number; msg: string });

describe('the built app in Node with a stand-in Electron', () => {
  it('ran the whole scenario and exited with 0, with no page error, CSP violation or error box', () => {
    expect(report.failure, output).toBeUndefined();
    expect(exitCode).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.quitting).toBe(true);
    expect(report.problems.filter((problem) => problem !== META_CSP_NOTICE)).toEqual([]);
    expect(report.errorBoxes).toEqual([]);
  });

  it('showed the dropped file\'s verdict, the threat in the tray and a notification, and the Settings view', () => {
    expect(report.verdict).toBe('unsafe');
    expect(report.tray).toEqual({ icon: 'tray-threat.png', tooltip: 'Verdict: threat found · Limited protection: basic checks only (EICAR test file)' });
    expect(report.notifications).toContain('Threat found: eicar.com');
    expect(report.settings).toEqual({ startAtLogin: false });
  });

  it('ran the local service in its worker thread (no fallback to the main thread)', () => {
    expect(report.workerThreads).toBeGreaterThanOrEqual(1);
    expect(logLines('core.log').map((line) => line.msg).join('\n')).not.toContain('running the local service on the main thread instead');
  });

  it('closed the core cleanly: logged the quit, no errors, databases closed, lock released', () => {
    const main = logLines('main.log');
    expect(main.map((line) => line.msg)).toContain('quit');
    expect([...main, ...logLines('core.log')].filter((line) => line.level >= 50)).toEqual([]);
    const data = path.join(home, 'userData');
    const files = fs.readdirSync(data, { recursive: true }).map(String);
    expect(files.filter((file) => file.endsWith('-wal') || file.endsWith('-shm') || file.endsWith('.lock'))).toEqual([]);
  });

  it('left nothing in the local service\'s temporary folders', () => {
    for (const dir of ['incoming', 'uploads']) expect(fs.readdirSync(path.join(home, 'userData/local-service', dir)), dir).toEqual([]);
  });
});

describe('the built app with a command', () => {
  it('verdict scan --json: the scan CLI\'s JSON line and exit code (1: a threat), and no window', async () => {
    const eicar = path.join(app.dir, 'eicar.com');
    const child = spawn(process.execPath, [HOOK, path.join(app.dir, 'dist-electron/main.js'), 'scan', '--json', '--engine', 'builtin', '--data-dir', path.join(app.dir, 'cli-data'), eicar], {
      cwd: app.dir,
      env: { ...process.env, STAND_IN_APP: app.dir, STAND_IN_HOME: path.join(app.dir, 'cli-home'), VITE_DEV_SERVER_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exit) => resolve(exit)));
    const lines = stdout.split('\n').filter(Boolean);
    expect(code).toBe(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ path: eicar, status: 'completed', safe: false });
    // The stand-in's report (printed on app.exit): no page was ever opened.
    const smoke = JSON.parse(lines.find((line) => line.startsWith('SMOKE_REPORT '))!.slice('SMOKE_REPORT '.length)) as SmokeReport;
    expect(smoke).toMatchObject({ exitCode: 1, problems: [] });
    expect(fs.existsSync(path.join(app.dir, 'cli-home'))).toBe(false);
  });
});
