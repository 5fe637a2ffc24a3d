// When a clamd last loaded its database folder (database-digest.ts DatabaseFolder): exact for
// Verdict's own clamd run by this process (it starts clamd and sends RELOAD); otherwise an estimate
// that errs early, so a database changed since reads as "not known to be loaded" (no digest, no reuse)
// rather than as loaded.
import { statSync } from 'node:fs';
import type { DatabaseFolder } from './database-digest.ts';
import { ownClamdFiles } from '../own-clamd/clamd-config.ts';
import { databasesLoadedAt } from '../own-clamd/databases-loaded.ts';
import { detectionKeyOfConf } from '../conf/detection-conf.ts';
import type { ClamdConfFacts } from '../conf/system-clamd-conf.ts';
import { clamdProcessFor } from '../conf/clamd-process.ts';
import type { ClamdEndpoint } from '../instream/clamd-protocol.ts';

/** Time for a SelfCheck's reload itself (the official database loads in tens of seconds). */
const RELOAD_MARGIN_MS = 60_000;

/**
 * Verdict's own clamd on this data folder (run by this process or another): loaded when the mark
 * of its start or last RELOAD says (own-clamd/databases-loaded.ts); without a mark (a clamd started
 * by an older Verdict), when it started (its pid file's time): a later RELOAD then reads as a change
 * not loaded yet, conservative. Its SelfCheck is off, so nothing else reloads it.
 */
export function ownFolder(dataDir: string, dir: string): DatabaseFolder | null {
  const loadedAtMs = databasesLoadedAt(dataDir) ?? statSync(ownClamdFiles(dataDir).pidPath, { throwIfNoEntry: false })?.mtimeMs;
  if (loadedAtMs === undefined) return null;
  // The settings it runs with are the ones in the clamd.conf written before it started.
  const detection = detectionKeyOfConf(ownClamdFiles(dataDir).configPath);
  return { dir, loadedAtMs, ...(detection !== undefined ? { detection } : {}) };
}

/** Verdict's own clamd run by this process: its folder, when it loaded it, and the settings it was started with. */
export function ownRunningFolder(own: { readonly detection: string | undefined }, dir: string, loadedAtMs: number): DatabaseFolder {
  const detection = own.detection;
  return { dir, loadedAtMs, ...(detection !== undefined ? { detection } : {}) };
}

/**
 * A system clamd: it reloads a changed folder at its next SelfCheck, at an unknown time; a change is
 * taken as loaded once a whole SelfCheck period (and a reload's time) has passed. SelfCheck 0: never.
 */
export function systemFolder(conf: Pick<ClamdConfFacts, 'databaseDir' | 'selfCheckSeconds'>, nowMs: number): DatabaseFolder | null {
  if (conf.databaseDir === null || conf.selfCheckSeconds <= 0) return null;
  return { dir: conf.databaseDir, loadedAtMs: nowMs - conf.selfCheckSeconds * 1000 - RELOAD_MARGIN_MS };
}

/**
 * A clamd named by the user (`--clamd`, the setting): its folder when its process is found on this
 * machine (conf/clamd-process.ts). It loaded the folder when it started, when it runs in the
 * foreground (a daemon forks after loading: its start says nothing), and at each SelfCheck as
 * systemFolder() reads it: whichever tells more. null when not found, or when neither says.
 */
export function namedFolder(endpoint: ClamdEndpoint, nowMs: number): DatabaseFolder | null {
  const found = clamdProcessFor(endpoint);
  if (!found || found.conf.databaseDir === null) return null;
  const bySelfCheck = systemFolder(found.conf, nowMs)?.loadedAtMs ?? null;
  const loadedAtMs = Math.max(found.loadsAfterMs ?? Number.NEGATIVE_INFINITY, bySelfCheck ?? Number.NEGATIVE_INFINITY);
  return Number.isFinite(loadedAtMs) ? { dir: found.conf.databaseDir, loadedAtMs } : null;
}
