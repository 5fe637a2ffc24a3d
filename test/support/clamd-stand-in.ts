// A stand-in for a clamd with dated official signatures (there are none offline):
// a Unix socket answering PING and VERSION with a line the test chooses, at the
// socket a running Verdict-own clamd of `dataDir` would have (its clamd.conf names it).
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

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
