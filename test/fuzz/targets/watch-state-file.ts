// The watch-state file (core/watch-state.ts): whatever `watch-state.json`
// holds, opening it gives null or a finite time and never throws. Two targets:
// the parsing alone in memory, and the file round trip at the disk's pace.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import fc from 'fast-check';
import { openWatchState, readWatchStateText, WATCH_STATE_FILE } from '../../../electron/core/watch-state.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue } from './support/strings.ts';

type StateFile = { kind: 'text'; text: string } | { kind: 'folder' } | { kind: 'missing' };

const stateFile: fc.Arbitrary<StateFile> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(anyJsonValue, fc.record({ lastWatchedAt: anyJsonValue }), fc.record({ lastWatchedAt: fc.oneof(fc.double(), fc.integer()) })).map((value) => ({ kind: 'text' as const, text: JSON.stringify(value) ?? '' })) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom<StateFile>({ kind: 'folder' }, { kind: 'missing' }) },
);

/** The parsing alone, in memory: the function openWatchState reads the file's text with. */
export const watchStateTextTarget: FuzzTarget<string | null> = {
  name: 'watch-state-text',
  about: 'readWatchStateText (what openWatchState parses watch-state.json with) on any text or none: null or a finite time, never a throw',
  smoke: { runs: 2_000 },
  async: false,
  async open() {
    return {
      arbitrary: fc.oneof({ weight: 20, arbitrary: stateFile.map((file) => (file.kind === 'text' ? file.text : null)) }, fc.string({ unit: 'grapheme', maxLength: 40 })),
      check(text) {
        const at = readWatchStateText(text);
        expectThat(at === null || Number.isFinite(at), `lastWatchedAt ${String(at)}`);
        if (at !== null) expectThat(text !== null && (JSON.parse(text) as { lastWatchedAt?: unknown }).lastWatchedAt === at, 'a time the text does not hold');
      },
      close: async () => {},
    };
  },
};

export const watchStateTarget: FuzzTarget<StateFile> = {
  name: 'watch-state-file',
  about: 'openWatchState: null or a finite lastWatchedAt for any file content (or a folder in its place), never a throw',
  smoke: { runs: 100 },
  async: true,
  async open() {
    const root = mkdtempSync(join(tmpdir(), 'verdict-fuzz-watch-state-'));
    let serial = 0;
    return {
      arbitrary: stateFile,
      async check(file) {
        const dir = join(root, String(serial++ % 8));
        await rm(dir, { recursive: true, force: true });
        await mkdir(dir);
        const path = join(dir, WATCH_STATE_FILE);
        if (file.kind === 'text') await writeFile(path, file.text);
        if (file.kind === 'folder') await mkdir(path);
        const errors: unknown[] = [];
        const state = await openWatchState(dir, (error) => errors.push(error));
        expectThat(state.lastWatchedAt === null || Number.isFinite(state.lastWatchedAt), `lastWatchedAt ${String(state.lastWatchedAt)}`);
        state.setRunning(false);
        await state.close();
        // A folder in the file's place cannot be written: reported through onError, not thrown.
        expectThat(file.kind === 'folder' || errors.length === 0, () => `write failed: ${String(errors[0])}`);
      },
      close: () => rm(root, { recursive: true, force: true }),
    };
  },
};
