// A real file logger in a temp folder, for tests that check what the shell logs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { createLogger, type Logger } from '../../../electron/logging/logger.ts';
import { resetFakeElectron } from './fake-electron.ts';

export interface LogCapture {
  log: Logger;
  lines(): Array<Record<string, unknown>>;
  cleanup(): void;
}

/** Every capture of a test file lives in one temporary folder, removed after the file's tests (a test that never calls cleanup leaves nothing behind). */
let root: string | null = null;
afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = null;
});

export function captureLog(): LogCapture {
  root ??= fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-logs-'));
  const dir = fs.mkdtempSync(path.join(root, 'log-'));
  const file = path.join(dir, 'test.log');
  const log = createLogger({ file, level: 'debug' });
  return {
    log,
    lines: () =>
      fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [],
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** Each test of the file starts with a fresh fake Electron and its own log capture (handed to `onCapture`), removed after it. */
export function useFreshShell(onCapture: (capture: LogCapture) => void): void {
  let current: LogCapture | undefined;
  beforeEach(() => {
    resetFakeElectron();
    current = captureLog();
    onCapture(current);
  });
  afterEach(() => current?.cleanup());
}
