// Finds the engine in the order (configured clamd, a clamd at the usual
// sockets, Verdict's own clamd, the built-in engine), asks it who it is, and turns
// that into the protection state. Used by the `status` CLI, by the engine watch the
// local service's live engine runs (engine-watch.ts, live/), and by the core, only to
// look, when the embedded service could not start.
import { readFileSync } from 'node:fs';
import type { EngineIdentity } from '../../shared/engine/engine-identity.ts';
import { protectionStatus, type EngineFacts, type EngineSource, type ProtectionStatus, type StreamLimit } from '../../shared/engine/protection-state.ts';
import { MAX_ASYNC_FILE_SIZE } from '../../shared/service-contract/limits.ts';
import { endpointLabel, type ClamdEndpoint } from './instream/clamd-protocol.ts';
import { clamdIdentityWithDatabases, type DatabaseFolder } from './databases/database-digest.ts';
import { namedFolder, ownFolder, ownRunningFolder, systemFolder } from './databases/database-folder.ts';
import { clamdAnswers, clamdVersion } from './own-clamd/clamd-commands.ts';
import { ownClamdFiles } from './own-clamd/clamd-config.ts';
import { ownDatabaseDir } from './own-clamd/find-clamav.ts';
import { OwnClamd, type OwnClamdOptions } from './own-clamd/own-clamd.ts';
import { clamdCandidates, DEFAULT_CLAMD_SOCKETS, type EngineKind } from './select-engine.ts';
import { parseClamdConf, readClamdConf, SYSTEM_CLAMD_CONF, type ClamdConfFacts } from './conf/system-clamd-conf.ts';
import { coverageLimitsFor } from './conf/coverage-limits.ts';
import { readDetectionConf } from './conf/detection-conf.ts';
import { usualSocketSource } from './conf/clamd-owner.ts';
import { samePath } from './conf/clamd-process.ts';

export interface EngineStatusInput {
  kind: EngineKind;
  dataDir: string;
  /** The signature folder for Verdict's own clamd (setting or --clamav-db). */
  clamavDb?: string;
  clamdSocket?: string;
  clamdHost?: string;
  clamdPort?: number;
  socketCandidates?: readonly string[];
  /** The system clamd's config, for its stream limit (default /etc/clamav/clamd.conf). */
  systemConfigPath?: string;
  /** false: Verdict's own clamd is not this caller's to run; no clamd answering then means the built-in engine. */
  ownAllowed?: boolean;
  /** Start Verdict's own clamd when nothing else answers (default true; false only looks). */
  startOwn?: boolean;
  /** Passed to OwnClamd (timeouts, backoff). */
  ownClamd?: Partial<OwnClamdOptions>;
  /** Told of Verdict's own clamd as soon as it is created (before it has loaded), so a caller closing meanwhile can stop it. */
  onOwnCreated?: (own: OwnClamd) => void;
  now?: Date;
}

export interface EngineStatus {
  status: ProtectionStatus;
  /** Verdict's own clamd when this call started it; the caller closes it (or keeps it for scanning). */
  started: OwnClamd | null;
  /** The folder the clamd in use loads: Verdict's own, or the system clamd's DatabaseDirectory; null when not known. */
  databaseDir: string | null;
  /** That folder and when the clamd last loaded it, when Verdict can tell (the signature identity's digest). */
  databaseFolder: DatabaseFolder | null;
}

const PROBE_MS = 2_000;

export async function engineStatus(input: EngineStatusInput): Promise<EngineStatus> {
  const now = input.now ?? new Date();
  const done = (facts: EngineFacts, started: OwnClamd | null = null, databaseDir: string | null = null, databaseFolder: DatabaseFolder | null = null): EngineStatus => ({
    // ClamAV's scan limits, and whether what lies beyond them is reported (scanned in part): coverage-limits.ts.
    status: { ...protectionStatus(facts, now, MAX_ASYNC_FILE_SIZE), ...(facts.kind === 'clamav' ? clamavExtras(facts.source, input) : {}) },
    started,
    databaseDir,
    databaseFolder,
  });
  if (input.kind === 'builtin') return done({ kind: 'builtin', why: 'builtin_requested' });

  const configured = input.clamdSocket !== undefined || input.clamdHost !== undefined || input.clamdPort !== undefined;
  if (configured) {
    const endpoints = clamdCandidates({ kind: 'clamd', clamdSocket: input.clamdSocket, clamdHost: input.clamdHost, clamdPort: input.clamdPort });
    const ownConf = ownClamdConfInUse(input.dataDir);
    for (const endpoint of endpoints) {
      // A configured socket that is Verdict's own clamd's (another Verdict process runs it) is named as such.
      const own = ownConf !== null && 'socketPath' in endpoint && endpoint.socketPath === ownConf.socket;
      // Another clamd: its folder when its process and config say which and Verdict can read it (clamd-process.ts).
      const named = own ? null : namedFolder(endpoint, now.getTime());
      const databaseDir = own ? ownConf.databaseDir : (named?.dir ?? null);
      const folder = own ? ownFolder(input.dataDir, ownConf.databaseDir) : named;
      const facts = await clamavFacts(endpoint, own ? 'own' : 'configured', null, folder);
      if (facts) return done(facts, null, databaseDir, folder);
    }
    const where = endpoints.map(endpointLabel).join(', ');
    return done({ kind: 'not_running', source: 'configured', where, why: 'clamd_not_answering' });
  }

  const system = await firstAnswering(input.socketCandidates ?? DEFAULT_CLAMD_SOCKETS);
  if (system) {
    // The system's config describes this clamd only when the system runs it (clamd-owner.ts).
    const source = usualSocketSource(system);
    const conf = source === 'system' ? systemConf(system, input.systemConfigPath ?? SYSTEM_CLAMD_CONF) : null;
    // Its process, when found, also tells when it started (a foreground clamd, as systemd runs Debian's, loaded its folder then).
    const byProcess = conf ? namedFolder({ socketPath: system }, now.getTime()) : null;
    const folder = conf ? (byProcess?.dir === conf.databaseDir ? byProcess : systemFolder(conf, now.getTime())) : null;
    const facts = await clamavFacts({ socketPath: system }, source, conf?.streamLimit ?? null, folder);
    if (facts) return done(facts, null, conf?.databaseDir ?? null, folder);
  }

  // Verdict's own clamd, already run by another Verdict process on this data directory.
  const runningConf = ownClamdConfInUse(input.dataDir);
  const running = runningConf?.socket ?? null;
  if (running && (await clamdAnswers({ socketPath: running }, PROBE_MS))) {
    const folder = runningConf ? ownFolder(input.dataDir, runningConf.databaseDir) : null;
    const facts = await clamavFacts({ socketPath: running }, 'own', null, folder);
    if (facts) return done(facts, null, runningConf?.databaseDir ?? null, folder);
  }

  if (input.ownAllowed === false) {
    // This caller never runs Verdict's own clamd (a service started without `ownClamd`).
    const tried = (input.socketCandidates ?? DEFAULT_CLAMD_SOCKETS).join(', ');
    if (input.kind === 'auto') return done({ kind: 'builtin', why: 'clamav_not_found', params: { tried } });
    return done({ kind: 'not_running', source: 'system', where: tried, why: 'clamd_not_answering' });
  }
  if (input.startOwn === false) {
    return done({ kind: 'not_running', source: 'own', where: running ? endpointLabel({ socketPath: running }) : ownClamdFiles(input.dataDir).configPath, why: 'clamd_not_answering' });
  }
  const own = new OwnClamd({ ...input.ownClamd, dataDir: input.dataDir, databaseDir: input.clamavDb });
  input.onOwnCreated?.(own);
  const state = await own.start();
  if (state.status === 'running') {
    const folder = own.loadedAtMs === null ? null : ownRunningFolder(own, state.databaseDir, own.loadedAtMs);
    const identity = await clamdIdentityWithDatabases(state.versionLine, folder);
    if (identity) return done({ kind: 'clamav', source: 'own', where: endpointLabel({ socketPath: state.socketPath }), identity }, own, state.databaseDir, folder);
  }
  await own.close();
  // Another Verdict process holds the folder and its clamd does not answer yet: it is loading.
  if (state.status === 'not_running' && state.problem === 'in_use') {
    return done({ kind: 'starting', where: running ? endpointLabel({ socketPath: running }) : ownClamdFiles(input.dataDir).configPath });
  }
  if (state.status !== 'not_running') {
    return done({ kind: 'not_running', source: 'own', where: 'own clamd', why: 'clamd_failed', params: { problem: 'clamd_failed', detail: 'clamd answered VERSION with something else' } });
  }
  // Nothing to run at all: the built-in engine, unless the user asked for ClamAV (or for this database).
  if (input.kind === 'auto' && input.clamavDb === undefined && (state.problem === 'clamd_missing' || state.problem === 'database_not_found')) {
    return done({ kind: 'builtin', why: state.problem === 'clamd_missing' ? 'clamav_not_found' : 'database_not_found', params: { tried: state.detail } });
  }
  return done({ kind: 'not_running', source: 'own', where: ownClamdFiles(input.dataDir).configPath, why: 'clamd_failed', params: { problem: state.problem, detail: state.detail } });
}

/**
 * ClamAV's scan limits, and whether what lies beyond them is reported (coverage-limits.ts); what it
 * detects (issue 28 §2): Verdict's own clamd's from the config it wrote, a system clamd's from its
 * clamd.conf (read-only), else not known.
 */
function clamavExtras(source: EngineSource, input: EngineStatusInput): Pick<ProtectionStatus, 'coverage' | 'detection'> {
  const system = input.systemConfigPath ?? SYSTEM_CLAMD_CONF;
  const own = ownClamdFiles(input.dataDir).configPath;
  const configPath = source === 'own' ? own : source === 'system' ? system : null;
  const settings = configPath === null ? null : readDetectionConf(configPath);
  return {
    coverage: coverageLimitsFor(source, system, own),
    detection: settings === null ? null : { settings, source: source === 'own' ? 'own' : 'system', configPath: configPath ?? '' },
  };
}

async function clamavFacts(endpoint: ClamdEndpoint, source: 'configured' | 'system' | 'own' | 'found', streamLimit: StreamLimit | null, folder: DatabaseFolder | null): Promise<EngineFacts | null> {
  let identity: EngineIdentity | null;
  try {
    identity = await clamdIdentityWithDatabases(await clamdVersion(endpoint, PROBE_MS), folder);
  } catch {
    identity = null;
  }
  // A clamd that scans but does not say who it is (PING only): ClamAV, version unknown.
  if (!identity && (await clamdAnswers(endpoint, PROBE_MS))) identity = { name: 'clamav', version: 'unknown', signatures: null };
  return identity ? { kind: 'clamav', source, where: endpointLabel(endpoint), identity, streamLimit } : null;
}

/** The first of the usual socket paths where a clamd answers PING (probed together). */
async function firstAnswering(candidates: readonly string[]): Promise<string | null> {
  const answers = await Promise.all(candidates.map((socketPath) => clamdAnswers({ socketPath }, PROBE_MS)));
  return candidates[answers.indexOf(true)] ?? null;
}

/** The system config (stream limit, database folder), when that config is the one of the clamd that answered. */
function systemConf(socketPath: string, configPath: string): ClamdConfFacts | null {
  const conf = readClamdConf(configPath);
  if (!conf?.localSocket) return null;
  return samePath(conf.localSocket, socketPath) ? conf : null;
}

/**
 * The LocalSocket of the clamd.conf Verdict wrote into this data directory, if any, and the
 * DatabaseDirectory it loads (the setting's folder, else the data directory's own).
 */
function ownClamdConfInUse(dataDir: string): { socket: string; databaseDir: string } | null {
  try {
    const conf = parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8'));
    const socket = conf.get('localsocket');
    return socket === undefined ? null : { socket, databaseDir: conf.get('databasedirectory') || ownDatabaseDir(dataDir) };
  } catch {
    return null;
  }
}
