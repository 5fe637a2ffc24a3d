// `--clamd unix:PATH|tcp:HOST:PORT` as a user runs it: `scan` and `status` (real `node
// electron/cli/….ts` children) against one real clamd listening on a unix socket and on a TCP
// port, as a clamav container on 3310 would. The engine line says whose clamd it is (the one
// you named) and how files reach it (by descriptor over the socket, streamed over TCP), the
// verdicts are clamd's, and a bad value ends the run with exit 2 and a sentence (en or de).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFdPassing } from '../../../electron/engine/clamd/fd-passing.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { startClamd, type RunningClamd } from '../../support/clamd.ts';
import { runNode, type ChildRun } from '../../support/node-child.ts';
import { freePort } from '../engine/scan-files.ts';
import { startClamdRelay } from '../engine/clamd-relay.ts';
import { tempDir } from '../scans/harness.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: Awaited<ReturnType<typeof tempDir>>;
let clamd: RunningClamd | null;
let files: { clean: string; eicar: string };

beforeAll(async () => {
  dir = await tempDir('verdict-cli-clamd-');
  clamd = await startClamd({ tcpPort: await freePort() });
  await mkdir(join(dir.path, 'files'));
  files = { clean: join(dir.path, 'files', 'clean.txt'), eicar: join(dir.path, 'files', 'eicar.com') };
  await writeFile(files.clean, 'nothing to see here\n');
  await writeFile(files.eicar, EICAR_TEST_STRING);
}, 60_000);
afterAll(async () => {
  await clamd?.stop();
  await dir?.remove();
});

function cli(name: 'scan' | 'status' | 'watch', args: string[], env: Record<string, string> = {}): Promise<ChildRun> {
  return runNode([join(ROOT, `electron/cli/${name}.ts`), ...args], {
    cwd: ROOT,
    env: { VERDICT_KEYCHAIN_SERVICE: `verdict-cli-test-${process.pid}`, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '', ...env },
    timeoutMs: 90_000,
  });
}

const engineLineOf = (stderr: string) => stderr.split('\n').find((line) => line.startsWith('Engine: ClamAV'));
const byDescriptor = loadFdPassing().ok;

describe.skipIf(process.platform !== 'linux')('--clamd with a real clamd', () => {
  it('tcp:127.0.0.1:PORT: clamd judges both files, streamed; the engine line names the clamd you named', async ({ skip }) => {
    if (!clamd?.tcpPort) return skip();
    const address = `tcp:127.0.0.1:${clamd.tcpPort}`;
    const run = await cli('scan', ['--data-dir', join(dir.path, 'data-tcp'), '--clamd', address, files.clean, files.eicar]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^THREAT .*eicar\.com .*Eicar-Test-Signature\.UNOFFICIAL/m);
    expect(run.stdout).toMatch(/^CLEAN .*clean\.txt/m);
    expect(engineLineOf(run.stderr)).toMatch(new RegExp(` at ${address.replace(/[.]/g, '\\.')} \\(\\w+\\), the clamd you named; files are streamed to clamd \\(INSTREAM\\)$`));
  });

  it('unix:PATH: by descriptor where the addon loads; status says whose and how, in text and --json', async ({ skip }) => {
    if (!clamd) return skip();
    const address = `unix:${clamd.socketPath}`;
    const dataDir = join(dir.path, 'data-unix');
    const run = await cli('scan', ['--data-dir', dataDir, '--clamd', address, files.eicar]);
    expect(run.code, run.stderr).toBe(1);
    const how = byDescriptor ? 'files go to clamd by descriptor \\(FILDES\\)' : 'files are streamed to clamd \\(INSTREAM\\)';
    expect(engineLineOf(run.stderr)).toMatch(new RegExp(` at ${address} \\(\\w+\\), the clamd you named; ${how}$`));

    const text = await cli('status', ['--data-dir', dataDir, '--clamd', address]);
    expect(text.stdout).toMatch(new RegExp(`^Engine: ClamAV [\\d.]+, the clamd you named at ${address}$`, 'm'));
    expect(text.stdout).toContain(`Files reach clamd: ${byDescriptor ? 'by descriptor (FILDES)' : 'streamed (INSTREAM)'}\n`);
    const json = await cli('status', ['--data-dir', dataDir, '--json', '--clamd', `tcp:127.0.0.1:${clamd.tcpPort}`]);
    expect(JSON.parse(json.stdout)).toMatchObject({ engine: { source: 'configured', where: `tcp:127.0.0.1:${clamd.tcpPort}`, transport: 'stream' }, selfTest: { result: 'passed' } });
  });

  it('a clamd that receives no descriptor (a relay drops them): files are streamed, and the engine line and status say so', async ({ skip }) => {
    if (!clamd || !byDescriptor) return skip();
    const relay = await startClamdRelay(clamd.socketPath, dir.path, 'forward');
    try {
      const address = `unix:${relay.path}`;
      const run = await cli('scan', ['--data-dir', join(dir.path, 'data-relay'), '--clamd', address, files.clean, files.eicar]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(/^THREAT .*eicar\.com /m);
      // The line is said again when files stop going by descriptor.
      expect(run.stderr.split('\n').filter((line) => line.startsWith('Engine: ClamAV')).at(-1)).toMatch(/the clamd you named; files are streamed to clamd \(INSTREAM\)$/);
      const status = await cli('status', ['--data-dir', join(dir.path, 'data-relay'), '--json', '--clamd', address]);
      expect(JSON.parse(status.stdout)).toMatchObject({ engine: { source: 'configured', transport: 'stream' }, selfTest: { result: 'passed' } });
    } finally {
      await relay.close();
    }
  });

  it('the settings\' choice, without --clamd: the clamd named in Settings judges the files, and is named so', async ({ skip }) => {
    if (!clamd?.tcpPort) return skip();
    const dataDir = join(dir.path, 'data-setting');
    await mkdir(dataDir);
    const address = `tcp:127.0.0.1:${clamd.tcpPort}`;
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, clamd: { kind: 'address', address } }));
    const run = await cli('scan', ['--data-dir', dataDir, files.eicar]);
    expect(run.code, run.stderr).toBe(1);
    expect(engineLineOf(run.stderr)).toContain(` at ${address} (`);
    expect(engineLineOf(run.stderr)).toContain(', the clamd you named; files are streamed to clamd (INSTREAM)');
  });

  it('German settings: status says whose clamd and how in German (the engine line\'s German: engine-line.test.ts)', async ({ skip }) => {
    if (!clamd?.tcpPort) return skip();
    const dataDir = join(dir.path, 'data-de');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, language: 'de' }));
    const address = `tcp:127.0.0.1:${clamd.tcpPort}`;
    const text = await cli('status', ['--data-dir', dataDir, '--clamd', address]);
    expect(text.stdout).toMatch(new RegExp(`^Engine: ClamAV [\\d.]+, der von Ihnen genannte clamd unter ${address.replace(/[.]/g, '\\.')}$`, 'm'));
    expect(text.stdout).toContain('Dateien erreichen clamd: gestreamt (INSTREAM)\n');
  });
});

describe('a bad --clamd value', () => {
  it('scan, watch and status end with exit 2 and say what is wrong, before anything is scanned', async () => {
    const dataDir = join(dir.path, 'data-bad');
    const scan = await cli('scan', ['--data-dir', dataDir, '--clamd', 'tcp:clamav:99999', files.clean]);
    expect(scan.code).toBe(2);
    expect(scan.stderr.trim()).toBe('--clamd: "tcp:clamav:99999" is not a clamd address: the port must be a number from 1 to 65535, not "99999".');
    expect(scan.stdout).toBe('');
    const watch = await cli('watch', ['--data-dir', dataDir, '--clamd', '/run/clamav/clamd.ctl', join(dir.path, 'files')]);
    expect(watch.code).toBe(2);
    expect(watch.stderr).toContain('--clamd: "/run/clamav/clamd.ctl" is not a clamd address: say what it is: unix:/run/clamav/clamd.ctl.');
    const status = await cli('status', ['--data-dir', dataDir, '--clamd', 'http://localhost:3310']);
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('"http" is not a kind of address');
    const service = await runNode([join(ROOT, 'electron/local-service/cli.ts'), '--data-dir', dataDir, '--clamd', 'tcp:bad_host:3310'], { cwd: ROOT, env: { LANG: 'C.UTF-8', LC_ALL: '' }, timeoutMs: 30_000 });
    expect(service.code).toBe(2);
    expect(service.stderr).toContain('--clamd: "tcp:bad_host:3310" is not a clamd address: "bad_host" is not a host name or an IP address.');
  });

  it('a named clamd that does not answer ends the run at once with exit 2, nothing scanned', async () => {
    const address = `tcp:127.0.0.1:${await freePort()}`;
    const run = await cli('scan', ['--data-dir', join(dir.path, 'data-silent'), '--clamd', address, files.clean]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--clamd: no clamd answers at ${address}. Start it`);
    expect(run.stdout).toBe('');
  });

  it('in German when the settings say so', async () => {
    const dataDir = join(dir.path, 'data-bad-de');
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ version: 1, language: 'de' }));
    const status = await cli('status', ['--data-dir', dataDir, '--clamd', 'unix:run/clamd.ctl']);
    expect(status.code).toBe(2);
    expect(status.stderr.trim()).toBe('--clamd: "unix:run/clamd.ctl" ist keine clamd-Adresse: der Socket-Pfad muss absolut sein und mit / beginnen.');
  });
});
