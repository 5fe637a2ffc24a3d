// What is known about the engine the embedded service picked at start, as the
// protection state needs it: for a clamd, who it is (VERSION), where it comes from
// (configured, Verdict's own, the system's) and its database folder; for the
// built-in engine, why it is in use and whether a clamd could be started instead.
import { readFileSync } from 'node:fs';
import { parseClamdVersion } from '../../shared/engine/engine-identity.ts';
import type { EngineFacts, StreamLimit } from '../../shared/engine/protection-state.ts';
import type { ClamdEndpoint } from '../local-service/engines/clamd-protocol.ts';
import { clamdVersion } from '../local-service/engines/own-clamd/clamd-commands.ts';
import { ownClamdFiles } from '../local-service/engines/own-clamd/clamd-config.ts';
import { findClamd, findDatabaseDir, ownDatabaseDir } from '../local-service/engines/own-clamd/find-clamav.ts';
import { DEFAULT_CLAMD_SOCKETS, type EngineDescription, type EngineKind } from '../local-service/engines/select-engine.ts';
import { parseClamdConf, readClamdConf, SYSTEM_CLAMD_CONF } from '../local-service/engines/system-clamd-conf.ts';

export interface EngineFactsInput {
  /** What the embedded service reported at start; null before it started or when it failed. */
  engine: EngineDescription | null;
  /** The engine kind the service was asked for. */
  kind: EngineKind;
  /** Set when a clamd socket was configured (options or CLI). */
  configuredSocket?: string;
  /** The app's data directory (Verdict's own clamd and database live under it). */
  dataDir: string;
  systemConfigPath?: string;
  versionTimeoutMs?: number;
}

export interface GatheredFacts {
  facts: EngineFacts;
  databaseDir: string | null;
}

export async function gatherEngineFacts(input: EngineFactsInput): Promise<GatheredFacts> {
  const endpoint = input.engine ? endpointOf(input.engine.where) : null;
  if (input.engine && endpoint) return clamdFacts(input, input.engine.where, endpoint);
  if (input.kind === 'builtin') return { facts: { kind: 'builtin', why: 'builtin_requested' }, databaseDir: null };
  // The built-in engine because no clamd answered when the service started.
  const clamd = findClamd();
  if (clamd === null) return { facts: { kind: 'builtin', why: 'clamav_not_found', params: { tried: 'clamd' } }, databaseDir: null };
  const database = findDatabaseDir({ dataDir: input.dataDir, clamdPath: clamd });
  if (!database.found) {
    return { facts: { kind: 'builtin', why: 'database_not_found', params: { tried: ownDatabaseDir(input.dataDir) } }, databaseDir: null };
  }
  // ClamAV and signatures are installed, but no clamd answered: it has to be started.
  const where = `unix:${DEFAULT_CLAMD_SOCKETS[0]}`;
  return { facts: { kind: 'not_running', source: 'system', where, why: 'clamd_not_answering', params: { detail: clamd } }, databaseDir: database.dir };
}

async function clamdFacts(input: EngineFactsInput, where: string, endpoint: ClamdEndpoint): Promise<GatheredFacts> {
  const socketPath = 'socketPath' in endpoint ? endpoint.socketPath : null;
  const own = socketPath !== null && socketPath === ownSocket(input.dataDir);
  const source = own ? 'own' : input.configuredSocket !== undefined ? 'configured' : 'system';
  const systemConf = source === 'system' ? readClamdConf(input.systemConfigPath ?? SYSTEM_CLAMD_CONF) : null;
  const confIsThisClamd = systemConf !== null && socketPath !== null && systemConf.localSocket === socketPath;
  const databaseDir = own ? ownDatabaseDir(input.dataDir) : confIsThisClamd ? systemDatabaseDir(input.systemConfigPath ?? SYSTEM_CLAMD_CONF) : null;
  try {
    const identity = parseClamdVersion(await clamdVersion(endpoint, input.versionTimeoutMs ?? 5_000));
    if (identity) {
      const streamLimit: StreamLimit | null = confIsThisClamd ? systemConf.streamLimit : null;
      return { facts: { kind: 'clamav', source, where, identity, streamLimit }, databaseDir };
    }
    return { facts: { kind: 'not_running', source, where, why: 'clamd_not_answering', params: { detail: 'no VERSION answer' } }, databaseDir };
  } catch (error) {
    return { facts: { kind: 'not_running', source, where, why: 'clamd_not_answering', params: { detail: (error as Error).message } }, databaseDir };
  }
}

/** `unix:/path` or `tcp:host:port`, as describeEngine() names a clamd; null for the built-in engine. */
export function endpointOf(where: string): ClamdEndpoint | null {
  if (where.startsWith('unix:')) return { socketPath: where.slice('unix:'.length) };
  const tcp = /^tcp:(.+):(\d{1,5})$/.exec(where);
  return tcp?.[1] && tcp[2] ? { host: tcp[1], port: Number(tcp[2]) } : null;
}

function ownSocket(dataDir: string): string | null {
  try {
    return parseClamdConf(readFileSync(ownClamdFiles(dataDir).configPath, 'utf8')).get('localsocket') ?? null;
  } catch {
    return null;
  }
}

function systemDatabaseDir(configPath: string): string | null {
  try {
    return parseClamdConf(readFileSync(configPath, 'utf8')).get('databasedirectory') ?? '/var/lib/clamav';
  } catch {
    return null;
  }
}
