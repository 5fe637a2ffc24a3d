// `verdict scan|watch|service …` from the packaged app: electron/main.ts routes the command
// before the single-instance lock and opens no window, runs it with today's CLI output,
// and exits with its code.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow, protocol, Tray } from './fake-electron.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

const originalArgv = process.argv;
const written: string[] = [];
// Mock call records are cleared between tests; keep what the launch did.
let launch: { exits: unknown[][]; locks: number; schemes: number };

beforeAll(async () => {
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  process.argv = ['/opt/Verdict/verdict', 'scan', '--help'];
  await import('../../../electron/main.ts');
  await vi.waitFor(() => expect(app.exit).toHaveBeenCalled());
  launch = { exits: [...app.exit.mock.calls], locks: app.requestSingleInstanceLock.mock.calls.length, schemes: protocol.registerSchemesAsPrivileged.mock.calls.length };
});
afterAll(() => {
  process.argv = originalArgv;
  vi.restoreAllMocks();
});

describe('electron/main.ts with a command', () => {
  it('runs the scan command: its usage, exit code 0', () => {
    expect(launch.exits).toEqual([[0]]);
    expect(written.join('')).toContain('Usage: npm run -s scan');
  });

  it('takes no single-instance lock and opens no window or tray', () => {
    expect(launch.locks).toBe(0);
    expect(launch.schemes).toBe(0);
    expect(BrowserWindow.instances).toHaveLength(0);
    expect(Tray.instances).toHaveLength(0);
  });
});
