import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { app, FakeEvent, resetFakeElectron } from './fake-electron.ts';
import { claimSingleInstance } from '../../../electron/shell/single-instance.ts';

vi.mock('electron', () => import('./fake-electron.ts'));

beforeEach(() => resetFakeElectron());

describe('claimSingleInstance', () => {
  it('returns null when another instance holds the lock (that one gets our launch data)', () => {
    app.lock = false;
    expect(claimSingleInstance()).toBeNull();
    const [data] = app.requestSingleInstanceLock.mock.calls[0]! as [{ argv: string[]; cwd: string; defaultApp: boolean }];
    expect(data.argv).toEqual(process.argv);
    expect(data.cwd).toBe(process.cwd());
  });

  it('hands paths from a second launch to the handler, buffering until one is set', () => {
    const instance = claimSingleInstance()!;
    const secondLaunch = { argv: ['/opt/Verdict/verdict', '--enable-logging', 'report.pdf', '../x.zip'], cwd: '/home/u/docs', defaultApp: false };
    app.emit('second-instance', new FakeEvent(), ['/opt/Verdict/verdict', 'ignored'], '/elsewhere', secondLaunch);
    const received: string[][] = [];
    instance.onHandover((paths) => received.push(paths));
    expect(received).toEqual([[path.resolve('/home/u/docs/report.pdf'), path.resolve('/home/u/x.zip')]]);

    app.emit('second-instance', new FakeEvent(), ['/opt/Verdict/verdict'], '/home/u', { argv: ['/opt/Verdict/verdict'], cwd: '/home/u', defaultApp: false });
    expect(received[1]).toEqual([]);
  });

  it('hands over files the OS opens with Verdict (macOS open-file)', () => {
    const instance = claimSingleInstance()!;
    const received: string[][] = [];
    instance.onHandover((paths) => received.push(paths));
    const event = new FakeEvent();
    app.emit('open-file', event, '/Users/u/Downloads/setup.dmg');
    expect(event.defaultPrevented).toBe(true);
    expect(received).toEqual([['/Users/u/Downloads/setup.dmg']]);
  });

  it('takes the first launch paths from this process argv', () => {
    const original = process.argv;
    process.argv = [original[0]!, path.resolve('/tmp/a.txt')];
    try {
      expect(claimSingleInstance()!.initialPaths).toEqual([path.resolve('/tmp/a.txt')]);
    } finally {
      process.argv = original;
    }
  });
});
