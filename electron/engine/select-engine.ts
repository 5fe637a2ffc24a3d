// The usual clamd sockets, the candidates to probe, and how an engine is described.
// selectEngine() is the one-shot choice (the service itself runs the live engine,
// engines/live/, which chooses again while it runs). It picks: clamd where one answers PING (the
// configured socket or TCP address, else the usual socket paths), else Verdict's
// own clamd when `ownClamd` is given and clamd and a database are there, otherwise
// the built-in engine when the caller allows it (`auto`).
import { BuiltinEngine } from './builtin-engine.ts';
import { ClamdEngine, type ClamdEngineOptions } from './clamd-engine.ts';
import { CLAMD_DEFAULT_PORT, type ClamdEndpoint } from './instream/clamd-protocol.ts';
import { EngineError, type ScanEngine } from './engine.ts';
import { OwnClamdEngine } from './own-clamd-engine.ts';
import { OwnClamd, type OwnClamdOptions } from './own-clamd/own-clamd.ts';

export type EngineKind = 'auto' | 'clamd' | 'builtin';

export interface SelectEngineOptions {
  kind: EngineKind;
  clamdSocket?: string;
  clamdHost?: string;
  clamdPort?: number;
  /** Where to look when no socket or TCP address is configured (default DEFAULT_CLAMD_SOCKETS). */
  socketCandidates?: readonly string[];
  /** How long each PING may take (default 2 s). */
  probeTimeoutMs?: number;
  /** Passed on to the ClamdEngine (timeouts, chunk size). */
  clamd?: Omit<ClamdEngineOptions, 'endpoint'>;
  /**
   * Start Verdict's own clamd when no clamd answers (not when one is configured).
   * Waits until it has loaded its database; absent, nothing is started.
   */
  ownClamd?: OwnClamdOptions;
}

/** Where clamd's LocalSocket usually is, by platform and package. */
export const DEFAULT_CLAMD_SOCKETS: readonly string[] = [
  '/run/clamav/clamd.ctl', // Debian, Ubuntu, Arch
  '/var/run/clamav/clamd.ctl',
  '/run/clamd.scan/clamd.sock', // Fedora, RHEL (clamd@scan)
  '/var/run/clamd.scan/clamd.sock',
  '/var/run/clamav/clamd.sock',
  '/tmp/clamd.socket', // clamd.conf's sample value, used by many hand-made setups
  '/opt/homebrew/var/run/clamav/clamd.sock', // Homebrew on Apple silicon
  '/usr/local/var/run/clamav/clamd.sock', // Homebrew on Intel
  '/opt/homebrew/var/run/clamd.sock',
  '/usr/local/var/run/clamd.sock',
];

const DEFAULT_PROBE_TIMEOUT_MS = 2_000;

export async function selectEngine(options: SelectEngineOptions): Promise<ScanEngine> {
  if (options.kind === 'builtin') return new BuiltinEngine({ reason: 'the built-in engine was requested' });

  const candidates = clamdCandidates(options);
  const engines = candidates.map((endpoint) => new ClamdEngine({ ...options.clamd, endpoint }));
  const timeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  // Probe all at once (a dead TCP host must not delay the others), then take
  // the first that answered in the order of preference.
  const probes = await Promise.allSettled(engines.map((engine) => engine.ping({ timeoutMs })));
  const chosen = engines.find((_, index) => probes[index]?.status === 'fulfilled');
  if (chosen) return chosen;

  const tried = engines
    .map((engine, index) => {
      const probe = probes[index];
      const why = probe?.status === 'rejected' ? describeFailure(probe.reason) : 'no answer';
      return `${engine.where} (${why})`;
    })
    .join(', ');
  let reason = `no clamd answered PING at ${tried}`;
  if (options.ownClamd && !hasConfiguredClamd(options)) {
    const own = new OwnClamd(options.ownClamd);
    const state = await own.start();
    if (state.status === 'running') return new OwnClamdEngine(own, state.socketPath, options.clamd);
    await own.close();
    if (state.status === 'not_running') reason += `; Verdict's own clamd did not start (${state.problem}: ${state.detail})`;
  }
  if (options.kind === 'clamd') throw new EngineError('engine_unavailable', reason);
  return new BuiltinEngine({ reason });
}

function hasConfiguredClamd(options: SelectEngineOptions): boolean {
  return options.clamdSocket !== undefined || options.clamdHost !== undefined || options.clamdPort !== undefined;
}

/** The configured endpoints if any, else the usual socket paths. */
export function clamdCandidates(options: SelectEngineOptions): ClamdEndpoint[] {
  const configured: ClamdEndpoint[] = [];
  if (options.clamdSocket) configured.push({ socketPath: options.clamdSocket });
  if (options.clamdHost !== undefined || options.clamdPort !== undefined) {
    configured.push({ host: options.clamdHost ?? '127.0.0.1', port: options.clamdPort ?? CLAMD_DEFAULT_PORT });
  }
  if (configured.length > 0) return configured;
  return (options.socketCandidates ?? DEFAULT_CLAMD_SOCKETS).map((socketPath) => ({ socketPath }));
}

export interface EngineDescription {
  /** `clamd` or `builtin`. */
  name: string;
  /** `unix:/path`, `tcp:host:port` or `in-process`. */
  where: string;
  /** Why the built-in engine is in use, when it is. */
  reason?: string;
}

/** What the service logs at start: which engine, where, and why. */
export function describeEngine(engine: ScanEngine): EngineDescription {
  // The live engine (engines/live/), without importing it: it names the engine it scans with now.
  const live = engine as { status?: { engine: { name: string; where: string }; reason: { code: string } } | null };
  if (live.status !== undefined) {
    const status = live.status;
    if (status === null) return { name: engine.name, where: 'choosing' };
    if (engine.name === 'builtin') return { name: 'builtin', where: 'in-process', reason: status.reason.code };
    return { name: engine.name, where: status.engine.where };
  }
  if (engine instanceof ClamdEngine) return { name: engine.name, where: engine.where };
  if (engine instanceof BuiltinEngine) {
    return engine.reason === undefined
      ? { name: engine.name, where: 'in-process' }
      : { name: engine.name, where: 'in-process', reason: engine.reason };
  }
  return { name: engine.name, where: 'unknown' };
}

/** The description as one line, e.g. `clamd at unix:/run/clamav/clamd.ctl`. */
export function engineSummary(engine: ScanEngine): string {
  const { name, where, reason } = describeEngine(engine);
  return reason === undefined ? `${name} at ${where}` : `${name} at ${where}: ${reason}`;
}

function describeFailure(reason: unknown): string {
  if (reason instanceof EngineError) {
    // "clamd at unix:/x is not reachable (ENOENT)" → "ENOENT": the endpoint is already named.
    const code = /\(([^)]+)\)$/.exec(reason.message)?.[1];
    return code ?? reason.code;
  }
  return String(reason);
}
