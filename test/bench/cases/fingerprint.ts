// Case 4: fingerprinting 100 MB (md5, sha1 and sha256 in one read pass)
// against `sha256sum` alone on the same file (page cache warm for both).
import path from 'node:path';
import { timeFingerprintVsSha256sum, writeRandomFile } from '../fingerprint.ts';
import type { BenchCase } from './bench-case.ts';
import { fromSamples } from './support/statistics.ts';

export const fingerprintCase: BenchCase = {
  id: 'fingerprint',
  title: 'fingerprint 100 MB (md5, sha1, sha256)',
  needs: ['sha256sum'],
  reps: { full: 5, quick: 2 },
  async run(context) {
    const mib = context.quick ? 16 : 100;
    const file = path.join(context.tmp, 'data.bin');
    writeRandomFile(file, mib);
    const { oursMs, sha256sumMs } = await timeFingerprintVsSha256sum(file, context.reps);
    context.log(`fingerprint: ours ${oursMs.map((ms) => ms.toFixed(0)).join(', ')} ms; sha256sum ${sha256sumMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    return [
      fromSamples(
        {
          name: `one pass, ${mib} MiB`,
          unit: 'ms',
          peerLabel: 'sha256sum',
          target: { on: 'ratio', op: '<=', value: 1.0, text: 'ratio ≤ 1.0' },
          note: 'sha256sum timed with its process start-up (a few ms)',
        },
        oursMs,
        sha256sumMs,
      ),
    ];
  },
};
