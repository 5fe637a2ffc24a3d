// Which config a named clamd (`--clamd unix:PATH`, the setting) runs with, found the way `ps`
// finds it: the clamd processes in /proc, each one's --config-file (else the system's clamd.conf),
// and the config whose LocalSocket is the named socket (or, for a loopback TCP clamd, whose
// TCPSocket is the named port). /proc/<pid>/cmdline and /stat are readable for every user's
// processes, so Debian's clamd (user clamav) is found too. Linux only; elsewhere, and for a clamd
// in a container or on another host, nothing is found and the signatures are known by VERSION alone.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import type { ClamdEndpoint } from '../instream/clamd-protocol.ts';
import { parseClamdConf, readClamdConf, SYSTEM_CLAMD_CONF, type ClamdConfFacts } from './system-clamd-conf.ts';

export interface ClamdProcess {
  pid: number;
  configPath: string;
  conf: ClamdConfFacts;
  /**
   * When the process started (ms since the epoch, rounded down) when it loads its databases after
   * that (it runs in the foreground: clamd loads before it forks into the background, so a daemon's
   * own start says nothing); else null.
   */
  loadsAfterMs: number | null;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's start time (100 on every architecture Node runs on). */
const CLOCK_TICKS_PER_SECOND = 100;
/** btime is whole seconds: a start read from it may be this much late or early. */
const BTIME_MS = 1_000;
/** And the clock may have been stepped since boot: the databases' load is taken this much before the start read. */
const START_MARGIN_MS = 2_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function clamdProcessFor(endpoint: ClamdEndpoint, proc = '/proc'): ClamdProcess | null {
  let pids: string[];
  try {
    pids = readdirSync(proc).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    const found = clamdProcess(proc, pid);
    if (found && serves(found.conf, found.configPath, endpoint)) return found;
  }
  return null;
}

function clamdProcess(proc: string, pid: string): ClamdProcess | null {
  let args: string[];
  try {
    if (readFileSync(`${proc}/${pid}/comm`, 'utf8').trim() !== 'clamd') return null;
    args = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null; // gone meanwhile, or not readable
  }
  const configPath = optionValue(args, 'config-file', 'c') ?? SYSTEM_CLAMD_CONF;
  const conf = readClamdConf(configPath);
  const started = startedAtMs(proc, pid);
  // A config changed since clamd started may not be the one it runs with.
  if (!conf || started === null || (statSync(configPath, { throwIfNoEntry: false })?.ctimeMs ?? Infinity) >= started - BTIME_MS) return null;
  const foreground = isTrue(optionValue(args, 'foreground', 'F', true)) ?? isTrue(parseClamdConf(readFileSync(configPath, 'utf8')).get('foreground')) ?? false;
  return { pid: Number(pid), configPath, conf, loadsAfterMs: foreground ? started - START_MARGIN_MS : null };
}

/** `--name=VALUE`, `--name VALUE`, `-x VALUE`, `-xVALUE`; a flag (`--foreground`, `-F`) reads as "yes". */
function optionValue(args: readonly string[], long: string, short: string, flag = false): string | undefined {
  let value: string | undefined;
  args.forEach((arg, i) => {
    if (arg.startsWith(`--${long}=`)) value = arg.slice(long.length + 3);
    else if (arg === `--${long}` || arg === `-${short}`) value = flag ? 'yes' : args[i + 1];
    else if (!flag && arg.startsWith(`-${short}`) && !arg.startsWith('--')) value = arg.slice(2);
  });
  return value;
}

function isTrue(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  return /^(yes|true|1)$/i.test(value.trim());
}

function serves(conf: ClamdConfFacts, configPath: string, endpoint: ClamdEndpoint): boolean {
  if ('socketPath' in endpoint) return conf.localSocket !== null && samePath(conf.localSocket, endpoint.socketPath);
  if (!LOOPBACK.has(endpoint.host)) return false;
  try {
    return parseClamdConf(readFileSync(configPath, 'utf8')).get('tcpsocket')?.trim() === String(endpoint.port);
  } catch {
    return false;
  }
}

/** The process's start from /proc/<pid>/stat (field 22, clock ticks after boot) and /proc/stat's btime. */
function startedAtMs(proc: string, pid: string): number | null {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const boot = /^btime (\d+)$/m.exec(readFileSync(`${proc}/stat`, 'utf8'));
    if (!boot?.[1] || !Number.isFinite(ticks)) return null;
    return Number(boot[1]) * 1000 + Math.floor((ticks / CLOCK_TICKS_PER_SECOND) * 1000);
  } catch {
    return null;
  }
}

/** Whether two paths name the same file (a socket reached through a link is the same socket). */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
