// Makes a round's tree on disk from its description, every path as bytes. FIFOs
// and sockets are made under a short ASCII name first (mkfifo takes text
// arguments, a socket path at most 108 bytes), then renamed into place.
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, renameSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { bodyBytes, EICAR, pathBytes, type EntrySpec, type LinkTarget } from './tree-spec.ts';

/** One round's folders: the tree scanned, the data directory, link targets outside the tree, a scratch folder. */
export interface RoundDirs {
  round: string;
  root: Buffer;
  data: string;
  outside: string;
  staging: string;
}

export function roundDirs(round: string): RoundDirs {
  return { round, root: Buffer.from(join(round, 'tree')), data: join(round, 'data'), outside: join(round, 'outside'), staging: join(round, 'staging') };
}

/** What a symbolic link holds, as bytes. */
function linkText(dirs: RoundDirs, link: EntrySpec, target: LinkTarget): Buffer {
  switch (target.to) {
    case 'entry': {
      if (target.absolute) return pathBytes(dirs.root, target.path);
      const up = Buffer.from('../'.repeat(link.path.length - 1));
      return Buffer.concat([up, pathBytes(Buffer.alloc(0), target.path).subarray(1)]);
    }
    case 'outside-file':
      return Buffer.from(join(dirs.outside, 'eicar.com'));
    case 'outside-dir':
      return Buffer.from(join(dirs.outside, 'dir'));
    case 'missing':
      return Buffer.from('no-such-entry');
    case 'self':
      return Buffer.from(link.path.at(-1)!, 'base64');
    case 'up':
      return Buffer.from(target.levels === 0 ? '.' : Array(target.levels).fill('..').join('/'));
  }
}

/** The tree's neighbours: what links out of it lead to (an EICAR file there must never be reported). */
function makeOutside(dirs: RoundDirs): void {
  mkdirSync(join(dirs.outside, 'dir'), { recursive: true });
  writeFileSync(join(dirs.outside, 'eicar.com'), EICAR);
  writeFileSync(join(dirs.outside, 'dir', 'inner.txt'), 'outside\n');
  mkdirSync(dirs.staging);
}

async function makeSocket(staging: string, at: Buffer): Promise<void> {
  const short = join(staging, 'socket');
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(short, resolve));
  // Renamed while bound, so closing the server cannot unlink it: a socket file nothing listens on.
  renameSync(short, at);
  await new Promise((resolve) => server.close(resolve));
}

export async function buildTree(dirs: RoundDirs, entries: readonly EntrySpec[]): Promise<void> {
  mkdirSync(dirs.root);
  makeOutside(dirs);
  const fifos: Buffer[] = [];
  for (const entry of entries) {
    const at = pathBytes(dirs.root, entry.path);
    switch (entry.kind) {
      case 'dir':
        mkdirSync(at);
        break;
      case 'file':
        writeFileSync(at, bodyBytes(entry.body));
        if (entry.size !== undefined) truncateSync(at, entry.size);
        break;
      case 'hardlink':
        linkSync(pathBytes(dirs.root, entry.to), at);
        break;
      case 'symlink':
        symlinkSync(linkText(dirs, entry, entry.target), at);
        break;
      case 'fifo':
        fifos.push(at);
        break;
      case 'socket':
        await makeSocket(dirs.staging, at);
        break;
      case 'many':
        mkdirSync(at);
        for (let i = 0; i < entry.count; i++) writeFileSync(Buffer.concat([at, Buffer.from(`/f${i}`)]), entry.eicarEvery > 0 && i % entry.eicarEvery === 0 ? EICAR : `file ${i}\n`);
        break;
    }
  }
  if (fifos.length === 0) return;
  const names = fifos.map((_, i) => join(dirs.staging, `fifo-${i}`));
  execFileSync('mkfifo', names);
  fifos.forEach((at, i) => renameSync(names[i]!, at));
}
