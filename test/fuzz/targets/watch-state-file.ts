// The watch-state file (core/watch-state.ts): whatever `watch-state.json`
// holds, opening it gives null or a finite time and never throws.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import fc from 'fast-check';
import { openWatchState, WATCH_STATE_FILE } from '../../../electron/core/watch-state.ts';
import { expectThat, type FuzzTarget } from '../harness/target.ts';
import { anyJsonValue } from './support/strings.ts';

type StateFile = { kind: 'text'; text: string } | { kind: 'folder' } | { kind: 'missing' };

const stateFile: fc.Arbitrary<StateFile> = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(anyJsonValue, fc.record({ lastWatchedAt: anyJsonValue }), fc.record({ lastWatchedAt: fc.oneof(fc.double(), fc.integer()) })).map((value) => ({ kind: 'text' as const, text: JSON.stringify(value) ?? '' })) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom<StateFile>({ kind: 'folder' }, { kind: 'missing' }) },
);

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
