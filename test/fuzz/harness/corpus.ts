// Every input that ever broke a target is kept, per target, in
// test/fuzz/corpus/<target>.json and replayed before each run (npm test too).
// The runner adds new findings itself; the note says what they broke.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusEntry {
  input: unknown;
  /** What the input broke, and where it came from. */
  note: string;
  /** yyyy-mm-dd */
  found: string;
}

export const CORPUS_DIR = join(import.meta.dirname, '../corpus');

const fileOf = (target: string) => join(CORPUS_DIR, `${target}.json`);

export function loadCorpus(target: string): CorpusEntry[] {
  const file = fileOf(target);
  if (!existsSync(file)) return [];
  return JSON.parse(readFileSync(file, 'utf8')) as CorpusEntry[];
}

/** Adds an input unless it is kept already; returns whether it was new. */
export function keepInCorpus(target: string, input: unknown, note: string): boolean {
  const entries = loadCorpus(target);
  const key = JSON.stringify(input);
  if (entries.some((entry) => JSON.stringify(entry.input) === key)) return false;
  entries.push({ input, note: note.slice(0, 500), found: new Date().toISOString().slice(0, 10) });
  writeFileSync(fileOf(target), `${JSON.stringify(entries, null, 2)}\n`);
  return true;
}
