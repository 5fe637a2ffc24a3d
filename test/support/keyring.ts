// A real, private Secret Service for a test file: its own D-Bus session bus and
// an unlocked gnome-keyring-daemon whose keyrings live in a temp folder, so
// tests never touch the user's keychain. Start it in beforeAll, before keytar
// is first used: libsecret keeps its D-Bus connection for the whole process
// (vitest runs each test file in its own process).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TOOLS = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon'] as const;
const READY_TIMEOUT_MS = 15_000;

export interface Keyring {
  /** The private bus; also set as process.env.DBUS_SESSION_BUS_ADDRESS while the keyring runs. */
  address: string;
  /** Stops the keyring daemon and the bus, removes the temp folder and restores the environment. */
  stop(): Promise<void>;
}

/** Which of the tools the keyring needs are not on PATH (empty: all there). */
export function missingKeyringTools(): string[] {
  return TOOLS.filter((tool) => !onPath(tool));
}

/**
 * Whether keyring tests can run here. In CI a missing tool is a failure (throws);
 * elsewhere the tests are skipped, with a loud message saying why.
 */
export function keyringTestsCanRun(): boolean {
  const missing = missingKeyringTools();
  if (missing.length === 0) return true;
  const message = `Keyring tests need ${missing.join(', ')} (Debian packages dbus and gnome-keyring).`;
  if (process.env.CI) throw new Error(`${message} CI must install them (.ci/run).`);
  console.warn(`\n*** SKIPPING keyring tests: ${message} ***\n`);
  return false;
}

export async function startKeyring(): Promise<Keyring> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'verdict-keyring-'));
  const runtimeDir = path.join(dir, 'runtime');
  mkdirSync(runtimeDir, { mode: 0o700 });
  const children: ChildProcess[] = [];
  const previousAddress = process.env.DBUS_SESSION_BUS_ADDRESS;

  const stop = async () => {
    for (const child of children.reverse()) await terminate(child);
    if (previousAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
    else process.env.DBUS_SESSION_BUS_ADDRESS = previousAddress;
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const bus = spawn('dbus-daemon', ['--session', '--print-address=1', '--nofork'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(bus);
    const address = await firstLine(bus, READY_TIMEOUT_MS);

    const env = {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: address,
      HOME: dir,
      XDG_DATA_HOME: path.join(dir, 'data'),
      XDG_RUNTIME_DIR: runtimeDir,
    };
    // --unlock reads the login keyring's password from stdin (and creates the keyring).
    const daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], { env, stdio: ['pipe', 'ignore', 'pipe'] });
    children.push(daemon);
    daemon.stdin?.end('pw');
    await waitForName(address, 'org.freedesktop.secrets', daemon);

    process.env.DBUS_SESSION_BUS_ADDRESS = address;
    return { address, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function onPath(tool: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The first line a child prints (dbus-daemon's address), or an error with its stderr. */
function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let errText = '';
    const timer = setTimeout(() => done(new Error(`dbus-daemon printed no address within ${timeoutMs} ms. ${errText}`)), timeoutMs);
    const done = (error: Error | null, line?: string) => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      if (error) reject(error);
      else resolve(line!);
    };
    child.stderr?.on('data', (chunk: Buffer) => (errText += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) done(null, out.slice(0, newline).trim());
    });
    child.once('error', (error) => done(error));
    child.once('exit', (code) => done(new Error(`dbus-daemon exited (${code}) before printing its address. ${errText}`)));
  });
}

/** Polls the bus until `name` has an owner (the keyring daemon is ready), bounded in time. */
async function waitForName(address: string, name: string, owner: ChildProcess): Promise<void> {
  let exited: number | null = null;
  let stderr = '';
  owner.once('exit', (code) => (exited = code ?? -1));
  owner.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== null) throw new Error(`gnome-keyring-daemon exited (${exited}) before it was ready: ${stderr}`);
    const { stdout } = await run(
      'dbus-send',
      ['--session', '--dest=org.freedesktop.DBus', '--print-reply', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
      { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address } },
    );
    if (/boolean true/.test(stdout)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gnome-keyring-daemon did not take ${name} on the test bus within ${READY_TIMEOUT_MS} ms: ${stderr}`);
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}
