// The scan CLI on generated file trees (issue 25): names of raw bytes (not UTF-8,
// U+FFFD next to its 0xff twin, NFC and NFD, newlines, bidi, 255 bytes, deep),
// hard and symbolic links, FIFOs, sockets, sparse files at and over the 100 MB
// limit, EICAR files; scanned by `node bin/verdict.mjs scan --json` once or
// several times on one data directory (stopped by SIGINT or SIGKILL, on a small
// tmpfs that fills, with files changed meanwhile). The final, uninterrupted run
// must list each file once with the right verdict, exit code and summary, and
// leave the history whole with no job unfinished. Support: support/scan-tree/.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuzzFinding, type FuzzTarget } from '../harness/target.ts';
import { findingText } from './support/scan-tree/finding-text.ts';
import { roundArb } from './support/scan-tree/round-arbitrary.ts';
import { runRound } from './support/scan-tree/round.ts';
import { sweepLeftovers } from './support/scan-tree/leftovers.ts';
import { canMount } from './support/scan-tree/small-disk.ts';
import type { TreeSpec } from './support/scan-tree/tree-spec.ts';

const PREFIX = join(tmpdir(), 'verdict-fuzz-scan-tree-');

export const scanTreeTarget: FuzzTarget<TreeSpec> = {
  name: 'scan-tree',
  about: 'the scan CLI (a child process) on generated trees, stopped, on a full disk, changed meanwhile: each file once, right verdict, exit code, summary, history whole',
  // A round costs seconds: a smoke test of its own runs these (test/electron/fuzz/scan-tree-smoke.test.ts).
  smoke: { runs: 12 },
  async: true,
  // A round takes seconds and its timing varies: shrinking would take hours and chase other outcomes.
  shrink: false,
  async open() {
    sweepLeftovers(PREFIX);
    const dir = mkdtempSync(`${PREFIX}${process.pid}-`);
    const compileCache = join(dir, 'compile-cache');
    mkdirSync(compileCache);
    const session = { dir, compileCache, mountable: canMount() };
    const headlined = new Set<string>();
    if (!session.mountable) console.error('[fuzz] scan-tree: not root, so small-disk plans run on the normal disk');
    return {
      arbitrary: roundArb,
      async check(spec) {
        const result = await runRound(session, spec);
        if (result.problems.length > 0) throw new FuzzFinding(findingText(result.problems, spec.plan, result, headlined));
      },
      close: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
};
