// Judges the final run's lines against the expectations (expectations.ts): each
// line is matched to the entry it names by bytes (the folder part through its
// real path, as a followed link to a folder names files by the link's path),
// then every entry's count and verdict, the exit code and the summary's counts.
import { basename, dirname } from 'node:path';
import { isUtf8, shownPath, type OutputLine, type ParsedOutput } from './cli-output.ts';
import type { Expectation, Expectations } from './expectations.ts';
import { joinBytes, keyOf, realPath } from './tree-snapshot.ts';

export interface Problem {
  /** Findings of one kind are one finding (the first words of a message tell findings apart). */
  kind: string;
  detail: string;
}

/** The entry a line names: its folder through the real path (links to folders resolved), its own name as printed. */
function physicalKey(bytes: Buffer): string {
  const name = Buffer.from(basename(bytes.toString('latin1')), 'latin1');
  try {
    return keyOf(joinBytes(realPath(Buffer.from(dirname(bytes.toString('latin1')), 'latin1')), name));
  } catch {
    return keyOf(bytes);
  }
}

/**
 * A folder has no line of its own, but the walk, entering it through a link, may find that it
 * closes a loop of links (a → b → a): then a could-not-scan line under that path, once.
 */
function folderProblems(path: Buffer, lines: readonly OutputLine[], show: (line: OutputLine) => string): Problem[] {
  const problems: Problem[] = [];
  const paths = new Set<string>();
  for (const line of lines) {
    const byLink = !line.bytes.equals(path);
    if (!byLink || line.verdict !== 'could-not-scan') problems.push({ kind: 'a folder reported', detail: show(line) });
    else if (paths.has(keyOf(line.bytes))) problems.push({ kind: 'reported twice', detail: show(line) });
    paths.add(keyOf(line.bytes));
  }
  return problems;
}

/** Why a file would be missing, as far as the tree tells: the finding's kind. `twinShown`: another path of its inode has a line. */
function missingKind(entry: Expectation['entry'], twinShown: boolean, cutShort: boolean): string {
  if (twinShown) return 'missing (hard link)';
  if (!isUtf8(entry.path)) return 'missing (name not UTF-8)';
  return cutShort ? 'missing (after an earlier run was cut short)' : 'missing';
}

export function judgeLines(output: ParsedOutput, expected: Expectations, root: Buffer, cutShort: boolean): Problem[] {
  const problems: Problem[] = output.malformed.map((detail) => ({ kind: 'malformed JSON line', detail }));
  const own = new Map<string, OutputLine[]>();
  for (const line of output.lines) {
    const key = physicalKey(line.bytes);
    own.set(key, [...(own.get(key) ?? []), line]);
  }
  const show = (line: OutputLine) => `${shownPath(line.bytes, root)} (${line.verdict}${line.error ? `: ${line.error}` : ''})`;
  for (const [key, lines] of own) {
    const expectation = expected.byKey.get(key);
    if (expectation?.rule.rule === 'none') problems.push(...folderProblems(expectation.entry.path, lines, show));
    else if (expectation) continue;
    else if (!expected.vanishing.has(key)) problems.push({ kind: 'unexpected line', detail: `${lines.map(show).join(', ')}: no such entry in the tree` });
    else if (lines.length > 1) problems.push({ kind: 'reported twice', detail: lines.map(show).join(', ') });
  }
  // Lines standing for each file (or group of hard links): its own and its followed links'.
  const groupOf = (key: string) => {
    const rule = expected.byKey.get(key)?.rule;
    return rule?.rule === 'covered' ? rule.group : key;
  };
  const covering = new Map<string, OutputLine[]>();
  const goneCovering = new Set<string>();
  for (const [key, expectation] of expected.byKey) {
    const lines = own.get(key) ?? [];
    const target = expectation.rule.rule === 'alias' && expected.byKey.has(expectation.rule.target) ? expectation.rule.target : key;
    if (expectation.rule.rule === 'alias' && lines.length > 1) problems.push({ kind: 'reported twice', detail: `${lines.map(show).join(', ')}` });
    // A path a change removed (or a link to it) may be met gone, or dangling: its could-not-scan line is its own,
    // not one standing for the file, whose other names may still have theirs.
    // When it was the name met first, its line is the only one its inode has: then it covers the file.
    // A name a change removed may also have been scanned before it went (a continued job's row), and its
    // inode then met under another name by a walk after it went: that line is its own too.
    const gone = expectation.anyVerdict && lines.length > 0 && (expectation.mayVanish || lines.every((line) => line.verdict === 'could-not-scan'));
    if (gone) {
      if (lines.length > 1 && expectation.rule.rule !== 'alias') problems.push({ kind: 'reported twice', detail: lines.map(show).join(', ') });
      goneCovering.add(groupOf(target));
      continue;
    }
    covering.set(groupOf(target), [...(covering.get(groupOf(target)) ?? []), ...lines]);
  }
  const inodesShown = new Set([...covering].filter(([, lines]) => lines.length > 0).map(([key]) => expected.byKey.get(key)?.entry.inode));
  const judged = new Set<string>();
  for (const [key, expectation] of expected.byKey) {
    const { rule } = expectation;
    if (rule.rule === 'none' || rule.rule === 'alias') continue;
    const group = groupOf(key);
    if (judged.has(group)) continue;
    judged.add(group);
    const members = [...expected.byKey].filter(([other]) => groupOf(other) === group).map(([, member]) => member);
    const lines = (rule.rule === 'covered' ? covering.get(group) : own.get(key)) ?? [];
    const entry = shownPath(expectation.entry.path, root);
    const least = rule.rule === 'optional' || members.every((member) => member.mayVanish) || (lines.length === 0 && goneCovering.has(group)) ? 0 : 1;
    if (lines.length < least) {
      const what = expectation.entry.eicar ? 'EICAR file' : expectation.entry.kind;
      const twinShown = expectation.entry.nlink > 1 && inodesShown.has(expectation.entry.inode);
      problems.push({ kind: missingKind(expectation.entry, twinShown, cutShort), detail: `${entry} (${what}, expected ${rule.verdict}) has no line` });
    } else if (lines.length > 1) {
      problems.push({ kind: 'reported twice', detail: `${entry}: ${lines.map(show).join(', ')}` });
    }
    for (const line of lines) {
      if (members.some((member) => member.anyVerdict) || line.verdict === rule.verdict) continue;
      const kind = expectation.entry.eicar ? 'EICAR file not reported as a threat' : `wrong verdict (${rule.verdict} expected)`;
      problems.push({ kind, detail: `${show(line)} for ${entry}, a ${expectation.entry.kind}` });
    }
  }
  return problems;
}

/** README's exit codes, from the lines printed: 1 for any threat, else 2 for anything not judged, else 3 for basic checks only, else 0. */
export function expectedExitCode(lines: readonly OutputLine[]): number {
  if (lines.some((line) => line.verdict === 'unsafe')) return 1;
  if (lines.some((line) => !['safe', 'allowed', 'basic-only'].includes(line.verdict))) return 2;
  return lines.some((line) => line.verdict === 'basic-only') ? 3 : 0;
}

/** The summary line's counts against the lines printed. */
export function judgeSummary(output: ParsedOutput): Problem[] {
  const { lines, summary } = output;
  if (summary === null) return [{ kind: 'final run without a summary line', detail: 'stderr has neither the summary nor "No files found to scan."' }];
  if (summary === 'nothing') return lines.length === 0 ? [] : [{ kind: 'summary', detail: `"No files found to scan." after ${lines.length} lines` }];
  const count = (...verdicts: string[]) => lines.filter((line) => verdicts.includes(line.verdict)).length;
  const printed = { scanned: count('safe', 'unsafe', 'allowed', 'basic-only'), threats: count('unsafe'), couldNotScan: count('could-not-scan', 'pending'), skipped: count('skipped') };
  const total = summary.scanned + summary.couldNotScan + summary.skipped;
  const differ = (Object.keys(printed) as Array<keyof typeof printed>).filter((field) => printed[field] !== summary[field]);
  if (total === lines.length && differ.length === 0) return [];
  return [{ kind: 'summary counts differ from the lines', detail: `summary ${JSON.stringify(summary)} (adds up to ${total}); the ${lines.length} lines: ${JSON.stringify(printed)}` }];
}
