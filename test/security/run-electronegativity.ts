// `npm run lint:electron`: runs Doyensec's Electronegativity over the main-process
// sources (electron/: main, preload, shell, core) and fails on any finding that is not suppressed in
// place with a reason: `// eng-disable CHECK_ID -- why this is safe`. A suppression
// without a reason fails too, and so does a file the tool cannot parse (it would
// otherwise be silently skipped).
//
// Offline and deterministic: the check that downloads Electron's release list
// (AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK) is excluded, and the tool's attempt to
// download fresh translations is answered locally. The Electron version comes from
// package.json. The renderer has no Electron or Node access; its CSP meta tag is the
// header's policy (test/electron/shell/csp.test.ts checks both).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '../..');
/** What to scan: the repository, or a folder given as the first argument (the gate's own tests). */
const ROOT = path.resolve(process.argv[2] ?? REPO);
const SCANNED = ['electron'];
const SOURCE = /\.(ts|tsx|js|jsx|mjs|cjs|html|htm)$/;
/** Needs the network (it fetches Electron's release list); item 16 is covered by pinning Electron. */
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
/** A suppression must say why: `eng-disable CHECK_ID [CHECK_ID…] -- reason of a few words`. */
const SUPPRESSION = /eng-disable[ \t]+([A-Z0-9_ \t]+?)[ \t]+--[ \t]+(\S.{11,})/;

interface Issue {
  file: string;
  id: string;
  description: string;
  sample?: string;
  manualReview?: boolean;
  location: { line: number; column: number };
  severity: { name?: string };
  confidence: { name?: string };
}
interface RunResult {
  issues: Issue[];
  errors: Array<{ file: string; message: string; tolerable: boolean }>;
  globalChecks: number;
  atomicChecks: number;
}
type Run = (options: Record<string, unknown>) => Promise<RunResult>;

function stage(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-electronegativity-'));
  for (const folder of SCANNED) {
    fs.cpSync(path.join(ROOT, folder), path.join(dir, folder), {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}node_modules`) && (fs.statSync(source).isDirectory() || SOURCE.test(source)),
    });
  }
  return dir;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : SOURCE.test(entry.name) ? [full] : [];
  });
}

/** Every eng-disable comment must carry a reason. */
function unexplainedSuppressions(dir: string): string[] {
  const problems: string[] = [];
  for (const file of walk(dir)) {
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.includes('eng-disable') && !SUPPRESSION.test(line)) {
          problems.push(`${path.relative(dir, file)}:${index + 1}: eng-disable without a reason ("-- why this is safe")`);
        }
      });
  }
  return problems;
}

async function loadRunner(): Promise<Run> {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@doyensec/electronegativity');
  // The tool fetches translations over the network on every run; answer locally instead.
  const fromTool = createRequire(main);
  const gotPath = fromTool.resolve('got');
  const offline = () => Promise.reject(new Error('offline: translations are bundled'));
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: Object.assign(offline, { default: offline }) } as unknown as NodeJS.Module;
  return require(main) as Run;
}

async function main(): Promise<number> {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const electronVersion = pkg.devDependencies?.electron?.replace(/^[^\d]*/, '');
  if (!electronVersion) throw new Error('package.json has no electron devDependency');

  const dir = stage();
  try {
    const run = await loadRunner();
    const log = console.log;
    console.log = (...args: unknown[]) => {
      if (!String(args[0]).startsWith('Could not retrieve updated translations')) log(...args);
    };
    let result: RunResult;
    try {
      result = await run({ input: dir, isRelative: true, electronVersionOverride: electronVersion, excludeFromScan: EXCLUDED_CHECKS, customScan: [], parserPlugins: [] });
    } finally {
      console.log = log;
    }

    const problems = [
      ...result.errors.filter((error) => !error.tolerable).map((error) => `${path.relative(dir, error.file)}: could not be parsed: ${error.message}`),
      ...result.issues.map(
        (issue) =>
          `${issue.file}:${issue.location.line}:${issue.location.column} ${issue.id} (${issue.severity.name ?? '?'}, ${issue.confidence.name ?? '?'}` +
          `${issue.manualReview ? ', manual review' : ''}): ${issue.description}${issue.sample ? `\n    ${issue.sample}` : ''}`,
      ),
      ...unexplainedSuppressions(dir),
    ];
    const scanned = walk(dir).length;
    if (problems.length > 0) {
      console.error(`Electronegativity: ${problems.length} problem(s) in ${scanned} files (Electron ${electronVersion}):`);
      for (const problem of problems) console.error(`  ${problem}`);
      console.error('Fix them, or suppress one in place with `// eng-disable CHECK_ID -- why this is safe`.');
      return 1;
    }
    console.log(`Electronegativity: no findings in ${scanned} files (${result.atomicChecks} atomic and ${result.globalChecks} global checks, Electron ${electronVersion}).`);
    return 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
