import { describe, expect, it, vi } from 'vitest';
import { app, FakeEvent } from './fake-electron.ts';
import { useFreshShell, type LogCapture } from './log-capture.ts';
import { closeBeforeQuit, onQuitRequest } from '../../../electron/shell/lifecycle.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

let capture: LogCapture;
useFreshShell((started) => (capture = started));

describe('quitting', () => {
  it('decides per phase', () => {
    expect(onQuitRequest('running')).toEqual({ allow: false, startCleanup: true });
    expect(onQuitRequest('closing')).toEqual({ allow: false, startCleanup: false });
    expect(onQuitRequest('closed')).toEqual({ allow: true, startCleanup: false });
  });

  it('holds the quit until the cleanup (closing the core) is done, once', async () => {
    let finish!: () => void;
    const cleanup = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const beforeQuit = vi.fn();
    closeBeforeQuit(cleanup, capture.log, beforeQuit);

    app.emit('before-quit');
    expect(beforeQuit).toHaveBeenCalled();
    const first = new FakeEvent();
    app.emit('will-quit', first);
    const second = new FakeEvent();
    app.emit('will-quit', second);
    expect(first.defaultPrevented && second.defaultPrevented).toBe(true);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();

    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const last = new FakeEvent();
    app.emit('will-quit', last);
    expect(last.defaultPrevented).toBe(false);
  });

  it('still quits when the cleanup fails, and logs why', async () => {
    closeBeforeQuit(async () => Promise.reject(new Error('database busy')), capture.log, () => {});
    app.emit('will-quit', new FakeEvent());
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    expect(capture.lines().some((line) => line.msg === 'cleanup before quit failed')).toBe(true);
  });
});
