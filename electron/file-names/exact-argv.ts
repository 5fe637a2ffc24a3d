// Node decodes the command line as UTF-8 too: an argument naming a file whose name is not UTF-8
// reaches process.argv with U+FFFD, naming another file or none. On Linux the exact bytes are in
// /proc/self/cmdline (NUL-separated): an argument holding U+FFFD is replaced by its bytes decoded
// with the escape decoder (fs-path.ts nameOf), when those bytes decode, as Node did, to exactly
// that argument. Elsewhere argv stays as it is: macOS names are UTF-8, and Windows hands over
// UTF-16, which Node converts without keeping any bytes to recover.
import { readFileSync } from 'node:fs';
import { nameOf } from './fs-path.ts';

const readOwnCmdline = (): Buffer => readFileSync('/proc/self/cmdline');

/** `argv` with each lossily decoded argument recovered exactly (Linux); otherwise a copy of it. */
export function exactArgv(argv: readonly string[], options: { platform?: NodeJS.Platform; cmdline?: () => Buffer } = {}): string[] {
  if ((options.platform ?? process.platform) !== 'linux' || !argv.some((arg) => arg.includes('\uFFFD'))) return [...argv];
  let raw: Buffer[];
  try {
    raw = splitAtNul((options.cmdline ?? readOwnCmdline)());
  } catch {
    return [...argv];
  }
  // The arguments end both lists; before them, cmdline may hold Node's own options (execArgv) and
  // the script as typed, where process.argv has the resolved one. So the two are matched from the end.
  const offset = raw.length - argv.length;
  return argv.map((arg, index) => {
    const bytes = raw[offset + index];
    if (index === 0 || !arg.includes('\uFFFD') || bytes === undefined) return arg;
    return bytes.toString('utf8') === arg ? nameOf(bytes) : arg;
  });
}

/** The NUL-separated entries of a cmdline (the last one ends with NUL too). */
function splitAtNul(cmdline: Buffer): Buffer[] {
  const entries: Buffer[] = [];
  let start = 0;
  for (let end = cmdline.indexOf(0); end !== -1; end = cmdline.indexOf(0, start)) {
    entries.push(cmdline.subarray(start, end));
    start = end + 1;
  }
  if (start < cmdline.length) entries.push(cmdline.subarray(start));
  return entries;
}
