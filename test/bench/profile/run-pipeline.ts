// Profiles benchmark case 5's pipeline (N small files through createCore, the
// embedded service in its worker thread, a real clamd) for issue 15's "profile
// first", or case 11's large files (`large` instead of N). Run it with --cpu-prof, then summarise:
//   node --cpu-prof --cpu-prof-dir=/tmp/prof test/bench/profile/run-pipeline.ts [N|large]
//   node test/bench/profile/summarise.ts /tmp/prof
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCore } from '../../../electron/core/create-core.ts';
import { startClamd } from '../../support/clamd.ts';
import { fixtureDir, noise } from '../../fixtures/engine-files.ts';
import { largeFileSizes } from '../cases/large-files.ts';
import { writeSmallFiles } from '../clamd-engine.ts';
import { cpuBetween, describePerItem, threadTimes } from '../cases/support/thread-cpu.ts';

const large = process.argv[2] === 'large';
const sizes = large ? largeFileSizes(false) : [];
const count = large ? sizes.length : Number(process.argv[2] ?? 1000);
const clamd = await startClamd();
if (!clamd) throw new Error('clamd did not start');
const files = await fixtureDir('verdict-profile-');
const dataDir = await mkdtemp(path.join(tmpdir(), 'verdict-profile-data-'));
try {
  if (large) for (const [i, size] of sizes.entries()) await files.write(`large-${i}.bin`, noise(size, i + 1));
  else await writeSmallFiles(files, count);
  const core = await createCore(
    { dataDir, keychainService: `verdict-profile-${randomUUID()}`, localService: { engine: 'clamd', clamdSocket: clamd.socketPath } },
    { watch: false, logLevel: 'warn' },
  );
  const before = threadTimes();
  const started = performance.now();
  const submitted = await core.submit([files.path], { origin: 'cli' });
  if (!submitted.ok) throw new Error(submitted.error.message);
  await core.idle();
  const ms = performance.now() - started;
  const after = threadTimes();
  const mib = sizes.reduce((a, b) => a + b, 0) / 2 ** 20;
  console.log(`${count} files in ${ms.toFixed(0)} ms (${((count / ms) * 1000).toFixed(0)} files/s${large ? `, ${((mib / ms) * 1000).toFixed(0)} MiB/s` : ''})`);
  if (before && after) console.log(`CPU ms per file by thread: ${describePerItem(cpuBetween(before, after), count)}`);
  await core.close();
} finally {
  await files.remove();
  await clamd.stop();
  await rm(dataDir, { recursive: true, force: true });
}
