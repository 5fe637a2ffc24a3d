// The local engine path, engine side: one file scanned by the service's live engine
// for the app itself, with no HTTP request, no store and no upload. The answer is
// what the service would record (scanning/engine-outcome.ts); the app words it.
// Runs where the engine runs: in the service's thread, or on the caller's thread
// when the service has to run there.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { fsPath } from '../../file-names/fs-path.ts';
import type { FileHash } from '../../../shared/service-contract/scan.ts';
import type { ScanEngine, ScanOptions } from '../../engine/engine.ts';
import type { ServiceLogger } from '../logger.ts';
import { resultOfVerdict, storedErrorOf } from '../scanning/engine-outcome.ts';
import { atLeast } from '../scanning/scan-runner.ts';
import { FileDigest, SAMPLE_BYTES } from '../upload/file-digest.ts';
import { detectMediaType } from '../upload/media-type.ts';
import type { EngineScanOutcome, EngineScanRequest } from './thread-protocol.ts';

export interface EngineRequests {
  /** Never rejects: an engine failure is the outcome's error (engine_aborted once `signal` fires). */
  scan(request: EngineScanRequest, signal: AbortSignal): Promise<EngineScanOutcome>;
  /** "Scan with basic checks only" for the files with these references that wait at the engine now; how many did. */
  allowBasicOnly(references: readonly string[]): number;
}

/**
 * `engine`: the service's, once it has started, and how many scans it runs at once (as many as the service's
 * runner, or as the engine takes to good effect when it says: a clamd session client's commands in flight);
 * `logger`: the service's (a failed scan is a warning, as there).
 */
export function createEngineRequests(engine: Promise<{ engine: ScanEngine; concurrency: number; scanDelayMs?: number }>, logger: Pick<ServiceLogger, 'warn'>): EngineRequests {
  // A service that fails to start is reported by whoever started it; a request answers with its error.
  engine.catch(() => undefined);
  /** The files at the engine now, each with the latch that lets it stop waiting for ClamAV. */
  const running = new Set<{ reference: string; allowed: AbortController }>();
  const turns = createTurns();
  return {
    async scan(request, signal) {
      const entry = { reference: request.reference, allowed: new AbortController() };
      running.add(entry);
      let turn: (() => void) | null = null;
      try {
        const started = await engine;
        // As many at once as the engine takes to good effect (a clamd session's commands in flight), else the service's.
        turn = await turns.take(Math.max(started.concurrency, started.engine.concurrency ?? 0), signal);
        // The service's test knob (scanDelayMs) holds a scan on this path as on the HTTP one.
        const [outcome] = await Promise.all([scanWith(started.engine, request, signal, entry.allowed.signal, logger), atLeast(performance.now(), started.scanDelayMs ?? 0, signal)]);
        return outcome;
      } catch (error) {
        // The service did not start: the thread is ending, and the app sends the file again.
        return { ok: false, error: storedErrorOf(error), fileType: null, fileHash: null, durationMs: 0 };
      } finally {
        turn?.();
        running.delete(entry);
      }
    },
    allowBasicOnly(references) {
      const wanted = new Set(references);
      let found = 0;
      for (const entry of running) {
        if (!wanted.has(entry.reference)) continue;
        entry.allowed.abort();
        found += 1;
      }
      return found;
    },
  };
}

async function scanWith(engine: ScanEngine, request: EngineScanRequest, signal: AbortSignal, allowed: AbortSignal, logger: Pick<ServiceLogger, 'warn'>): Promise<EngineScanOutcome> {
  const started = performance.now();
  const options: ScanOptions = { basicOnly: request.basicOnly, basicOnlyAllowed: allowed, ...(request.hashed ? { hashed: { ...request.hashed, path: request.path } } : {}) };
  const content = request.content ? Buffer.from(request.content.buffer, request.content.byteOffset, request.content.byteLength) : undefined;
  let sameAsHashed = false;
  const answer = await (content && engine.scanBytes ? engine.scanBytes(content, signal, options) : engine.scan(request.path, signal, options)).then(
    // The engine's name as it answered (the live engine's follows ClamAV), as the service records it.
    (verdict) => ((sameAsHashed = verdict.sameAsHashed === true), { ok: true as const, result: resultOfVerdict(verdict, engine.name), engine: verdict.engine ?? null }),
    (error: unknown) => {
      if (!signal.aborted) logger.warn({ err: error }, 'scan failed');
      return { ok: false as const, error: storedErrorOf(error) };
    },
  );
  const unchanged = sameAsHashed ? { unchangedSinceHashed: true as const } : {};
  if (content) return { ...answer, fileType: await mediaTypeOf(content), fileHash: null, durationMs: elapsed(started), ...unchanged };
  // The engine scanned, by its open descriptor, the very file the app hashed, unchanged until clamd answered: the
  // app's digests stand (no second read); only its first bytes are read, for its type.
  if (sameAsHashed) return { ...answer, fileType: await sampleTypeOf(request.path, request.size), fileHash: null, durationMs: elapsed(started), ...unchanged };
  // Read by its path: what it holds now is hashed, so a file changed since the app hashed it gets no verdict
  // (finish.ts compares the digests), as with an upload the service hashes.
  const read = signal.aborted ? null : await digestOf(request.path, signal);
  const fileType = read ? await detectMediaType({ path: request.path }, read.sample, read.size) : null;
  return { ...answer, fileType, fileHash: read?.hash ?? null, ...(read ? { sizeNow: read.size } : {}), durationMs: elapsed(started) };
}

/** As the service types an upload it holds in memory (upload/media-type.ts). */
function mediaTypeOf(content: Buffer): Promise<string> {
  return detectMediaType({ content }, content.subarray(0, SAMPLE_BYTES), content.length);
}

/** The media type from the file's first bytes, as the service types a file; null when they cannot be read. */
async function sampleTypeOf(path: string, size: number): Promise<string | null> {
  try {
    const handle = await open(fsPath(path), 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(Math.min(SAMPLE_BYTES, size)), 0, Math.min(SAMPLE_BYTES, size), 0);
      return await detectMediaType({ path }, buffer.subarray(0, bytesRead), size);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** The file's digests and first bytes as they are now; null when it cannot be read (gone, say). */
async function digestOf(path: string, signal: AbortSignal): Promise<{ hash: FileHash; sample: Buffer; size: number } | null> {
  const digest = new FileDigest(Number.MAX_SAFE_INTEGER);
  try {
    for await (const chunk of createReadStream(fsPath(path), { highWaterMark: READ_CHUNK_BYTES, signal })) digest.update(chunk as Buffer);
  } catch {
    return null;
  }
  return { hash: digest.digests(), sample: digest.sample(), size: digest.size };
}

const READ_CHUNK_BYTES = 256 * 1024;
/** At most `limit` holders at once, the others wait in order; a waiter whose signal fires leaves the line. */
function createTurns() {
  let holders = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    holders -= 1;
    waiting.shift()?.();
  };
  return {
    take(limit: number, signal: AbortSignal): Promise<() => void> {
      if (holders < limit) {
        holders += 1;
        return Promise.resolve(once(release));
      }
      return new Promise((resolve, reject) => {
        const next = () => {
          signal.removeEventListener('abort', leave);
          holders += 1;
          resolve(once(release));
        };
        const leave = () => {
          waiting.splice(waiting.indexOf(next), 1);
          reject(signal.reason);
        };
        waiting.push(next);
        signal.addEventListener('abort', leave, { once: true });
      });
    },
  };
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

const elapsed = (started: number) => Math.max(0, Math.round(performance.now() - started));
