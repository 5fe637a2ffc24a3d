// A second launch: it hands its arguments to the running instance (through the
// single-instance lock) and quits without creating a core or a window.
import { describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow } from './fake-electron.ts';

const hoisted = vi.hoisted(() => ({ created: 0 }));

vi.mock('electron', () => import('./fake-electron.ts'));
vi.mock('../../../electron/core/create-core.ts', () => ({
  createCore: async () => {
    hoisted.created++;
    throw new Error('a second instance must not open the data folder');
  },
}));

describe('electron/main.ts in a second instance', () => {
  it('quits at once', async () => {
    app.lock = false;
    await import('../../../electron/main.ts');
    expect(app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(app.quit).toHaveBeenCalledTimes(1);
    expect(app.whenReady).not.toHaveBeenCalled();
    expect(hoisted.created).toBe(0);
    expect(BrowserWindow.instances).toHaveLength(0);
  });
});
