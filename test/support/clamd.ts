// Starts a real clamd for tests and benchmarks: its own config, socket and
// signature database in a temp dir, in the foreground as our child process.
// Without clamd installed it returns null (skip) outside CI and throws in CI.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { EICAR_TEST_STRING } from '../../electron/engine/builtin-engine.ts';

export const CLAMAV_TESTFILES_DIR = '/usr/share/clamav-testfiles';

/** Names clamd reports for the harness's signatures (custom databases get `.UNOFFICIAL`). */
export const TEST_SIGNATURES = {
  eicar: 'Eicar-Test-Signature.UNOFFICIAL',
  clamTestFile: 'ClamAV-Test-File.UNOFFICIAL',
} as const;

export interface StartClamdOptions {
  /** clamd's StreamMaxLength (default 200M: above the service's 100 MB limit). */
  streamMaxLength?: string;
  /** Also listen on TCP 127.0.0.1 at this port. */
  tcpPort?: number;
  /** Bounded wait for the first PONG (default 30 s). */
  startTimeoutMs?: number;
  /** More clamd.conf lines, e.g. `ReadTimeout 1` (how long clamd keeps an idle session). */
  extraConfig?: readonly string[];
  /**
   * Run clamd as this user (clamd.conf `User`), as Debian's system clamd runs as `clamav`:
   * started by root, it then cannot open root's private files by path. Needs root; its
   * folder (socket, database, temp files) and log are handed to that user. Without root:
   * skipped outside CI, an error in CI.
   */
  user?: string;
  /** Writes more database files into clamd's database folder before it starts (the bench's realistic database). */
  moreDatabases?: (dbDir: string) => Promise<void>;
}

export interface RunningClamd {
  socketPath: string;
  dbDir: string;
  configPath: string;
  /** TCP port, when started with tcpPort. */
  tcpPort?: number;
  /** What clamd printed and logged so far (for diagnosing a failing test). */
  output(): string;
  /** Stops clamd (SIGTERM) and starts it again on the same socket and database; resolves at the first PONG. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const CLAMD_LOCATIONS = ['/usr/sbin/clamd', '/usr/local/sbin/clamd', '/opt/homebrew/sbin/clamd'];

/** The clamd binary: the usual locations, then PATH. */
export function findClamdBinary(): string | null {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'clamd'));
  for (const candidate of [...CLAMD_LOCATIONS, ...onPath]) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next
    }
  }
  return null;
}

export async function startClamd(options: StartClamdOptions = {}): Promise<RunningClamd | null> {
  const binary = findClamdBinary();
  if (binary === null) {
    const notice = 'clamd is not installed (apt-get install clamav-daemon clamav-testfiles): the real-clamd tests are SKIPPED';
    if (process.env.CI) throw new Error(`${notice.split(':')[0]}, and CI must run the clamd tests`);
    console.warn(`\n${'!'.repeat(100)}\n!!! ${notice}\n${'!'.repeat(100)}\n`);
    return null;
  }

  const account = options.user === undefined ? null : userAccount(options.user);
  if (account === false) return null;

  const root = await mkdtemp(join(tmpdir(), 'verdict-clamd-'));
  const dbDir = join(root, 'db');
  const socketPath = join(root, 'clamd.sock');
  const configPath = join(root, 'clamd.conf');
  await mkdir(dbDir);
  await mkdir(join(root, 'tmp'));
  await writeSignatureDatabase(dbDir);
  await options.moreDatabases?.(dbDir);
  await writeFile(configPath, clamdConfig({ root, dbDir, socketPath, ...options }));
  if (account) {
    // clamd drops to the user before it makes its socket and opens its log.
    await writeFile(join(root, 'clamd.log'), '');
    for (const path of [root, dbDir, join(root, 'tmp'), join(root, 'clamd.log')]) await chown(path, account.uid, account.gid);
  }

  let output = '';
  const keep = (data: Buffer) => {
    output = (output + data.toString('utf8')).slice(-20_000);
  };
  const launch = () => {
    const child = spawn(binary, [`--config-file=${configPath}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { child, exited, watchdog: startWatchdog(child) };
  };
  let running = launch();
  const logPath = join(root, 'clamd.log');
  const fullOutput = () => {
    let log = '';
    try {
      log = readFileSync(logPath, 'utf8');
    } catch {
      // not written yet, or already cleaned up
    }
    return `${output}${log.slice(-20_000)}`;
  };
  const killOnExit = () => {
    running.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const terminate = async () => {
    const { child, exited, watchdog } = running;
    watchdog.kill('SIGKILL');
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(forced);
    }
  };
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', killOnExit);
    await terminate();
    await rm(root, { recursive: true, force: true });
  };
  const restart = async () => {
    await terminate();
    await rm(socketPath, { force: true });
    running = launch();
    await waitForPong(socketPath, running.child, options.startTimeoutMs ?? 30_000);
  };

  try {
    await waitForPong(socketPath, running.child, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    const diagnosis = fullOutput();
    await stop();
    throw new Error(`clamd did not start: ${(error as Error).message}\n--- clamd output ---\n${diagnosis}`, { cause: error });
  }
  return { socketPath, dbDir, configPath, tcpPort: options.tcpPort, output: fullOutput, restart, stop };
}

function clamdConfig(o: { root: string; dbDir: string; socketPath: string } & StartClamdOptions): string {
  const streamMax = o.streamMaxLength ?? '200M';
  const lines = [
    'Foreground yes',
    `LocalSocket ${o.socketPath}`,
    'LocalSocketMode 600',
    `DatabaseDirectory ${o.dbDir}`,
    `TemporaryDirectory ${join(o.root, 'tmp')}`,
    `LogFile ${join(o.root, 'clamd.log')}`,
    'LogTime no',
    // Raised above the service's 100 MB upload limit (clamd's defaults are 100M/100M/400M).
    `StreamMaxLength ${streamMax}`,
    'MaxFileSize 200M',
    'MaxScanSize 400M',
    // A test clamd never reloads its database mid-run.
    'SelfCheck 0',
  ];
  // Without `user`, no User line: clamd keeps our identity. No TCPSocket unless asked for.
  if (o.user !== undefined) lines.push(`User ${o.user}`);
  if (o.tcpPort !== undefined) lines.push('TCPAddr 127.0.0.1', `TCPSocket ${o.tcpPort}`);
  lines.push(...(o.extraConfig ?? []));
  return `${lines.join('\n')}\n`;
}

/** The user's ids when clamd may be started as it; false (skip) when this process is not root. */
function userAccount(user: string): { uid: number; gid: number } | false {
  if (process.getuid?.() !== 0) {
    const notice = `clamd as user ${user} needs root: these real-clamd tests are SKIPPED`;
    if (process.env.CI) throw new Error(notice.split(':')[0]);
    console.warn(`\n!!! ${notice}\n`);
    return false;
  }
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith(`${user}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`no user ${user} in /etc/passwd (the clamav-daemon package makes clamav)`);
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * The test signatures: EICAR as a body signature (matches anywhere, also inside
 * archives) and clam.exe by MD5 (what `sigtool --md5 clam.exe` prints), which
 * clamd also finds inside the packed and archived variants it unpacks.
 */
async function writeSignatureDatabase(dbDir: string): Promise<void> {
  const eicarHex = Buffer.from(EICAR_TEST_STRING, 'latin1').toString('hex');
  await writeFile(join(dbDir, 'verdict-test.ndb'), `Eicar-Test-Signature:0:*:${eicarHex}\n`);
  const clamExe = await readFile(join(CLAMAV_TESTFILES_DIR, 'clam.exe')).catch(() => null);
  if (clamExe) {
    const md5 = createHash('md5').update(clamExe).digest('hex');
    await writeFile(join(dbDir, 'verdict-test.hdb'), `${md5}:${clamExe.length}:ClamAV-Test-File\n`);
  } else if (process.env.CI) {
    throw new Error(`${CLAMAV_TESTFILES_DIR}/clam.exe is missing: install clamav-testfiles`);
  } else {
    console.warn(`!!! ${CLAMAV_TESTFILES_DIR}/clam.exe is missing (apt-get install clamav-testfiles): its tests are SKIPPED`);
  }
}

/**
 * Kills clamd if this process dies without calling stop(), even by SIGKILL:
 * a shell blocked reading a pipe from us sees EOF when we are gone.
 */
function startWatchdog(child: ChildProcess): ChildProcess {
  const watchdog = spawn('/bin/sh', ['-c', 'read -r _; kill -9 "$0" 2>/dev/null', String(child.pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // Neither the watchdog nor its pipe may keep a test process alive.
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  return watchdog;
}

/** Polls PING until PONG, clamd exits, or the bounded wait ends. */
async function waitForPong(socketPath: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`clamd exited (${child.exitCode ?? child.signalCode})`);
    }
    if (await answersPing(socketPath)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no PONG on ${socketPath} within ${timeoutMs} ms`);
}

/** A minimal PING, independent of the engine under test. */
export function answersPing(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path: socketPath });
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (data) => (reply += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(reply === 'PONG\0'));
  });
}
