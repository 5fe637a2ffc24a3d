// The engine used when no clamd is reachable. It recognises only the EICAR
// anti-virus test file, and its clean label says so: it is not malware detection.
import { open } from 'node:fs/promises';
import { fsPath } from '../file-names/fs-path.ts';
import { BUILTIN_IDENTITY } from '../../shared/engine/engine-identity.ts';
import { DETAILED_LABELS, EngineError, type EngineVerdict, type ScanEngine } from './engine.ts';

// Assembled from two halves so that this source file is not itself the test
// file to a scanner that matches the string anywhere.
export const EICAR_TEST_STRING = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$' + 'EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** The finding name the built-in engine reports. */
export const EICAR_FINDING = 'EICAR-Test-File';

// The EICAR definition: the 68-byte string at the very start, optionally
// followed by whitespace only (space, tab, LF, CR, Ctrl-Z), 128 bytes at most in all.
const EICAR_BYTES = Buffer.from(EICAR_TEST_STRING, 'latin1');
const EICAR_MAX_FILE_SIZE = 128;
const EICAR_PADDING = new Set([0x20, 0x09, 0x0a, 0x0d, 0x1a]);

/** True when the bytes are the whole file and are the EICAR test file per its definition. */
export function isEicarTestFile(content: Buffer): boolean {
  if (content.length < EICAR_BYTES.length || content.length > EICAR_MAX_FILE_SIZE) return false;
  if (!content.subarray(0, EICAR_BYTES.length).equals(EICAR_BYTES)) return false;
  return content.subarray(EICAR_BYTES.length).every((byte) => EICAR_PADDING.has(byte));
}

export interface BuiltinEngineOptions {
  /** Why the built-in engine is in use (e.g. which clamd sockets did not answer), for logs. */
  reason?: string;
}

export class BuiltinEngine implements ScanEngine {
  readonly name = 'builtin';
  readonly reason: string | undefined;

  constructor(options: BuiltinEngineOptions = {}) {
    this.reason = options.reason;
  }

  async scan(filePath: string, signal?: AbortSignal): Promise<EngineVerdict> {
    if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
    const head = await readHead(filePath, EICAR_MAX_FILE_SIZE + 1);
    if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
    return verdictFor(head);
  }

  async scanBytes(content: Buffer, signal?: AbortSignal): Promise<EngineVerdict> {
    if (signal?.aborted) throw new EngineError('engine_aborted', 'the scan was cancelled', { cause: signal.reason });
    return verdictFor(content.subarray(0, EICAR_MAX_FILE_SIZE + 1));
  }
}

/** `head`: up to one byte more than an EICAR file may have, from the start of the file. */
function verdictFor(head: Buffer): EngineVerdict {
  if (isEicarTestFile(head)) {
    return { safe: false, detailed: DETAILED_LABELS.infected, findings: [{ name: EICAR_FINDING }], engine: BUILTIN_IDENTITY };
  }
  return { safe: true, detailed: DETAILED_LABELS.basicChecksClean, findings: [], engine: BUILTIN_IDENTITY };
}

/** Up to `limit` bytes from the start of the file: one more than EICAR allows tells "too long". */
async function readHead(filePath: string, limit: number): Promise<Buffer> {
  let handle;
  try {
    // The name's exact bytes: the local engine path hands the user's own paths, which need not be UTF-8.
    handle = await open(fsPath(filePath), 'r');
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new EngineError('file_unreadable', `the file to scan could not be read (${code})`, { cause: error });
  } finally {
    await handle?.close();
  }
}
