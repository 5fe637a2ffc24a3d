// Finding a named clamd's config through /proc (clamd-process.ts), on a /proc-shaped folder: its
// --config-file in any spelling clamd takes, the config whose LocalSocket (or loopback TCPSocket)
// is the named one, a start time only for a clamd in the foreground (a daemon loads before it
// forks), and no answer for a config written after the process started.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clamdProcessFor } from '../../../electron/engine/conf/clamd-process.ts';

let root: string;
const proc = () => join(root, 'proc');

async function boot(bootS: number): Promise<void> {
  await writeFile(join(proc(), 'stat'), `cpu  1 2 3\nbtime ${bootS}\nprocesses 9\n`);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'verdict-clamd-process-'));
  await mkdir(proc());
});
afterAll(() => rm(root, { recursive: true, force: true }));

/** A process started 100 s after boot (10,000 clock ticks). */
async function fakeProcess(pid: number, comm: string, args: string[]): Promise<void> {
  const dir = join(proc(), String(pid));
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'comm'), `${comm}\n`);
  await writeFile(join(dir, 'cmdline'), `${args.join('\0')}\0`);
  // Fields 4 on; field 22, the start in clock ticks after boot, is the 19th of them.
  const rest = Array.from({ length: 30 }, (_, i) => (i === 18 ? '10000' : '0'));
  await writeFile(join(dir, 'stat'), `${pid} (${comm}) S ${rest.join(' ')}\n`);
}

async function conf(name: string, lines: string[]): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('clamdProcessFor', () => {
  it('finds the clamd serving the named socket by its --config-file, in each spelling; its start only in the foreground', async () => {
    const path = await conf('a.conf', ['LocalSocket /run/a.sock', 'DatabaseDirectory /var/lib/a', 'SelfCheck 0']);
    const other = await conf('b.conf', ['LocalSocket /run/b.sock', 'DatabaseDirectory /var/lib/b', 'TCPSocket 3310']);
    // Booted "now": the processes started 100 s from now, after the configs were written.
    const bootS = Math.floor(Date.now() / 1000);
    await boot(bootS);
    await fakeProcess(7, 'bash', ['/bin/bash', `--config-file=${path}`]);
    await fakeProcess(41, 'clamd', ['/usr/sbin/clamd', `--config-file=${other}`]);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('--config-file=X', '--config-file X', '-c X', '-cX'), fc.constantFrom('--foreground', '-F', '--foreground=true', '--foreground=no', ''), async (spelling, fg) => {
        await fakeProcess(42, 'clamd', ['/usr/sbin/clamd', ...spelling.replace('X', path).split(' '), ...(fg ? [fg] : [])]);
        const found = clamdProcessFor({ socketPath: '/run/a.sock' }, proc());
        expect(found).toMatchObject({ pid: 42, configPath: path, conf: { databaseDir: '/var/lib/a', selfCheckSeconds: 0 } });
        const foreground = fg !== '' && fg !== '--foreground=no';
        expect(found?.loadsAfterMs).toBe(foreground ? (bootS + 100) * 1000 - 2_000 : null);
      }),
      { numRuns: 20 },
    );
    expect(clamdProcessFor({ host: '127.0.0.1', port: 3310 }, proc())?.pid).toBe(41);
    expect(clamdProcessFor({ host: 'clamav.example', port: 3310 }, proc())).toBeNull();
    expect(clamdProcessFor({ socketPath: '/run/c.sock' }, proc())).toBeNull();
  });

  it('a config written after the clamd started may not be the one it runs with: not found', async () => {
    const path = await conf('late.conf', ['LocalSocket /run/late.sock', 'DatabaseDirectory /var/lib/late']);
    await fakeProcess(43, 'clamd', ['/usr/sbin/clamd', '-c', path, '-F']);
    // Booted an hour ago: the process started 100 s after boot, long before the config was written.
    await boot(Math.floor(Date.now() / 1000) - 3600);
    expect(clamdProcessFor({ socketPath: '/run/late.sock' }, proc())).toBeNull();
    await boot(Math.floor(Date.now() / 1000));
    expect(clamdProcessFor({ socketPath: '/run/late.sock' }, proc())?.pid).toBe(43);
  });
});
