// Issue 26 §6 "the whole run counts": `verdict scan` of N unchanged small files, run
// again (the unchanged-file skip, Verdict's own clamd on a test database), against
// `clamdscan --multiscan --fdpass` scanning them again on a test clamd with the same
// database. Wall time of each CLI run: its own clamd's start and the compaction included.
//   node test/bench/profile/unchanged-rescan.ts [N]
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startClamd } from '../../support/clamd.ts';
import { fixtureDir } from '../../fixtures/engine-files.ts';
import { writeSmallFiles } from '../clamd-engine.ts';

const run = promisify(execFile);
const count = Number(process.argv[2] ?? 3000);
const clamd = await startClamd();
if (!clamd) throw new Error('clamd did not start');
const files = await fixtureDir('verdict-unchanged-');
const dataDir = await mkdtemp(path.join(tmpdir(), 'verdict-unchanged-data-'));
const cli = path.join(import.meta.dirname, '../../../bin/verdict.mjs');
const timed = async (what: () => Promise<{ stdout: string; stderr: string }>) => {
  const started = performance.now();
  const out = await what().catch((error: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: error.stdout ?? '', stderr: `${error.stderr ?? ''} (exit ${error.code})` }));
  return { ms: performance.now() - started, out };
};
try {
  await writeSmallFiles(files, count);
  // Older than RACY_WINDOW_MS before the first scan, so entries are made.
  await new Promise((resolve) => setTimeout(resolve, 3_500));
  const config = path.join(dataDir, 'clamdscan.conf');
  await writeFile(config, `LocalSocket ${clamd.socketPath}\n`);
  const db = path.join(dataDir, 'db');
  await mkdir(db);
  await writeFile(path.join(db, 'bench.ndb'), `Bench-Signature:0:*:${Buffer.from('verdict bench signature, matches nothing here').toString('hex')}\n`);
  const scan = () => run(process.execPath, [cli, 'scan', files.path, '--data-dir', path.join(dataDir, 'v'), '--engine', 'auto', '--clamav-db', db], { maxBuffer: 1 << 28 });
  const peer = () => run('clamdscan', ['--multiscan', '--fdpass', `--config-file=${config}`, '--no-summary', files.path], { maxBuffer: 1 << 28 });
  await timed(peer);
  const first = await timed(scan);
  const second = await timed(scan);
  const third = await timed(scan);
  const peerAgain = await timed(peer);
  const tail = (text: string) => text.trim().split('\n').slice(-3).join(' | ');
  console.log(`first scan ${first.ms.toFixed(0)} ms: ${tail(first.out.stderr)}`);
  console.log(`rescan: ${tail(second.out.stderr)}`);
  console.log(`rescan ${second.ms.toFixed(0)} ms, again ${third.ms.toFixed(0)} ms: ${tail(third.out.stderr)}`);
  console.log(`clamdscan --multiscan --fdpass again ${peerAgain.ms.toFixed(0)} ms; ratio (clamdscan / verdict rescan) ${(peerAgain.ms / Math.min(second.ms, third.ms)).toFixed(2)}`);
} finally {
  await files.remove();
  await clamd.stop();
  await rm(dataDir, { recursive: true, force: true });
}
