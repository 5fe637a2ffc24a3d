// Summarises the .cpuprofile files in a folder (one per thread, as --cpu-prof
// writes them): the functions with the most self time, each with its share.
//   node test/bench/profile/summarise.ts DIR [TOP]
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [dir, topArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: summarise.ts DIR [TOP]');
const top = Number(topArg ?? 15);
for (const name of (await readdir(dir)).filter((file) => file.endsWith('.cpuprofile')).sort()) {
  const profile = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as Profile;
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const frame = byNode.get(id)?.callFrame;
    const delta = profile.timeDeltas[index] ?? 0;
    if (!frame || frame.functionName === '(idle)') return;
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|electron|test)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
    total += delta;
  });
  console.log(`\n${name}: ${(total / 1000).toFixed(0)} ms busy`);
  for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  }
}
