// A stand-in for a clamd with dated official signatures (there are none offline):
// a Unix socket answering PING and VERSION with a line the test chooses, at the
// socket a running Verdict-own clamd of `dataDir` would have (its clamd.conf names it).
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { EICAR } from '../fixtures/engine-files.ts';

export interface ClamdStandIn {
  socketPath: string;
  /** What VERSION answers from now on. */
  setVersion(line: string): void;
  close(): Promise<void>;
}

export async function startClamdStandIn(dataDir: string, versionLine: string): Promise<ClamdStandIn> {
  await mkdir(dataDir, { recursive: true });
  const socketPath = join(dataDir, 'clamd.sock');
  await writeFile(join(dataDir, 'clamd.conf'), `LocalSocket ${socketPath}\n`);
  let version = versionLine;
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      const command = data.toString();
      socket.end(command.includes('PING') ? 'PONG\0' : command.includes('VERSION') ? `${version}\0` : 'UNKNOWN COMMAND\0');
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    setVersion: (line) => void (version = line),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** clamd's ctime() form of a date, as in `ClamAV 1.4.6/27467/Mon Nov 24 09:21:02 2026` (read as UTC). */
export function clamdCtime(date: Date): string {
  return date
    .toUTCString()
    .replace(/^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/, (_, day: string, d: string, month: string, year: string, time: string) => `${day} ${month} ${String(Number(d)).padStart(2, ' ')} ${time} ${year}`);
}

/** A VERSION line whose signatures were built `hours` ago. */
export function datedVersionLine(hours: number, signatureVersion = 27467): { line: string; date: Date } {
  const date = new Date(Date.now() - hours * 3_600_000);
  date.setUTCMilliseconds(0);
  return { line: `ClamAV 1.4.6/${signatureVersion}/${clamdCtime(date)}`, date };
}

/**
 * A stand-in that also scans: INSTREAM reads the chunks and answers `stream: OK`
 * (it knows only EICAR, which it does not count as a scan), VERSION answers the chosen line. No sessions (IDSESSION is
 * an unknown command), so the engine uses a connection per scan. With it, verdicts carry
 * dated signatures, which a real clamd with the tests' own databases never reports.
 */
export async function startScanningClamdStandIn(socketPath: string, versionLine: string): Promise<ClamdStandIn & { scans(): number }> {
  let version = versionLine;
  let scans = 0;
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    let streaming = false;
    const chunks: Buffer[] = [];
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      if (!streaming) {
        const end = buffered.indexOf(0);
        if (end < 0) return;
        const command = buffered.subarray(0, end).toString();
        buffered = buffered.subarray(end + 1);
        if (command !== 'zINSTREAM') {
          socket.end(command === 'zPING' ? 'PONG\0' : command === 'zVERSION' ? `${version}\0` : 'UNKNOWN COMMAND\0');
          return;
        }
        streaming = true;
      }
      // Length-prefixed chunks; a zero-length one ends the file.
      while (buffered.length >= 4) {
        const length = buffered.readUInt32BE(0);
        if (length === 0) {
          // EICAR is found, as by a real clamd (Verdict's self-test sends it); only the other files count as scans.
          if (Buffer.concat(chunks).includes(EICAR)) return void socket.end('stream: Eicar-Test-Signature FOUND\0');
          scans++;
          socket.end('stream: OK\0');
          return;
        }
        if (buffered.length < 4 + length) return;
        chunks.push(buffered.subarray(4, 4 + length));
        buffered = buffered.subarray(4 + length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return {
    socketPath,
    scans: () => scans,
    setVersion: (line) => void (version = line),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
