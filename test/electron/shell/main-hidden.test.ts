// A login start (`verdict --hidden`, the autostart entry): the core and the tray start,
// no window opens; a later launch of Verdict shows the window.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { app, BrowserWindow, FakeEvent, Tray } from './fake-electron.ts';
import { createTestCore, type TestCore } from './test-core.ts';

const hoisted = vi.hoisted(() => ({ core: null as TestCore | null }));

vi.mock('electron', () => import('./fake-electron.ts'));
vi.mock('../../../electron/core/create-core.ts', () => ({ createCore: async () => hoisted.core }));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-main-hidden-'));
const originalArgv = process.argv;

beforeAll(async () => {
  hoisted.core = createTestCore();
  app.getPath.mockImplementation((name: string) => path.join(tmp, name));
  process.argv = ['/opt/Verdict/verdict', '--hidden'];
  await import('../../../electron/main.ts');
  await vi.waitFor(() => expect(Tray.instances).toHaveLength(1));
});
afterAll(() => {
  process.argv = originalArgv;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('electron/main.ts started with --hidden', () => {
  it('starts with the tray only, no window', () => {
    expect(BrowserWindow.instances).toHaveLength(0);
  });

  it('shows the window when Verdict is launched again', async () => {
    app.emit('second-instance', new FakeEvent(), ['verdict'], '/home/u', { argv: ['/opt/Verdict/verdict'], cwd: '/home/u', defaultApp: false });
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1));
  });
});
