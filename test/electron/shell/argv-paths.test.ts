import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { launchDataOf, pathsFromArgv, pathsFromLaunch, pathsFromSecondInstance } from '../../../electron/shell/argv-paths.ts';

const cwd = path.resolve('/home/user/Downloads');

describe('pathsFromArgv', () => {
  it('skips the executable and resolves relative paths against cwd', () => {
    expect(pathsFromArgv(['/opt/Verdict/verdict', 'a.exe', './b/c.pdf', '/tmp/d'], { cwd, skip: 1 })).toEqual([
      path.join(cwd, 'a.exe'),
      path.join(cwd, 'b', 'c.pdf'),
      path.resolve('/tmp/d'),
    ]);
  });

  it('skips the app folder too when launched as `electron .`', () => {
    expect(pathsFromArgv(['/usr/bin/electron', '.', 'x.zip'], { cwd, skip: 2 })).toEqual([path.join(cwd, 'x.zip')]);
  });

  it('ignores flags and Chromium/Electron switches', () => {
    const argv = ['verdict', '--no-sandbox', '--enable-logging', '--original-process-start-time=13370000', '-psn_0_12345', '--inspect=9229', 'file.bin', '-'];
    expect(pathsFromArgv(argv, { cwd, skip: 1 })).toEqual([path.join(cwd, 'file.bin')]);
  });

  it('treats everything after a lone -- as a path, even names starting with a dash', () => {
    expect(pathsFromArgv(['verdict', '--flag', '--', '--weird-name.txt', '-x'], { cwd, skip: 1 })).toEqual([
      path.join(cwd, '--weird-name.txt'),
      path.join(cwd, '-x'),
    ]);
  });

  it('turns file:// URLs into paths and ignores other URLs', () => {
    const file = path.resolve('/home/user/some file.txt');
    expect(pathsFromArgv(['verdict', pathToFileURL(file).toString(), 'https://example.com/x', 'verdict://app/'], { cwd, skip: 1 })).toEqual([file]);
  });

  it('drops empty arguments, NUL bytes and duplicates, keeping order', () => {
    expect(pathsFromArgv(['verdict', '', 'a', 'bad\0name', './a', 'b'], { cwd, skip: 1 })).toEqual([path.join(cwd, 'a'), path.join(cwd, 'b')]);
  });

  it('returns nothing when only the executable is given', () => {
    expect(pathsFromArgv(['verdict'], { cwd, skip: 1 })).toEqual([]);
    expect(pathsFromArgv([], { cwd, skip: 1 })).toEqual([]);
  });
});

describe('second-instance hand-over', () => {
  it('prefers the launch data the second instance sent', () => {
    const data = { argv: ['/usr/bin/electron', '.', 'new.exe'], cwd: '/home/other', defaultApp: true };
    const paths = pathsFromSecondInstance({ argv: ['/usr/bin/electron', '--some-switch', '.', 'new.exe'], workingDirectory: '/ignored', additionalData: data }, 1);
    expect(paths).toEqual([path.resolve('/home/other/new.exe')]);
  });

  it('falls back to the event argv with the first instance skip when the data is malformed', () => {
    const paths = pathsFromSecondInstance({ argv: ['/usr/bin/electron', '.', 'x.txt'], workingDirectory: '/work', additionalData: { argv: 'nope' } }, 2);
    expect(paths).toEqual([path.resolve('/work/x.txt')]);
  });

  it('reads launch data from a process-like object', () => {
    const data = launchDataOf({ argv: ['/opt/Verdict/verdict', 'doc.pdf'], cwd: () => '/home/u', defaultApp: undefined });
    expect(data).toEqual({ argv: ['/opt/Verdict/verdict', 'doc.pdf'], cwd: '/home/u', defaultApp: false });
    expect(pathsFromLaunch(data)).toEqual([path.resolve('/home/u/doc.pdf')]);
  });
});
