// The set-up the notification tests share: a fresh stand-in Electron, a test core, a captured
// log and the two callbacks, with setupNotifications started by `start()`. Each test file still
// mocks 'electron' itself (vi.mock is hoisted per file).
import { afterEach, beforeEach, vi } from 'vitest';
import { resetFakeElectron } from './fake-electron.ts';
import { captureLog, type LogCapture } from './log-capture.ts';
import { createTestCore, type TestCore } from './test-core.ts';
import { realTimers } from '../../../electron/shell/event-batcher.ts';
import { setupNotifications } from '../../../electron/shell/notifications.ts';

export interface NotificationsFixture {
  readonly core: TestCore;
  readonly capture: LogCapture;
  readonly onShowScan: ReturnType<typeof vi.fn>;
  readonly onOpen: ReturnType<typeof vi.fn>;
  start(): () => void;
}

export function useNotificationsFixture(options: { windowMs: number; fakeTimers?: boolean }): NotificationsFixture {
  let capture: LogCapture | undefined;
  let core: TestCore | undefined;
  const onShowScan = vi.fn();
  const onOpen = vi.fn();
  beforeEach(() => {
    resetFakeElectron();
    if (options.fakeTimers) vi.useFakeTimers();
    capture = captureLog();
    core = createTestCore();
    onShowScan.mockClear();
    onOpen.mockClear();
  });
  afterEach(() => {
    if (options.fakeTimers) vi.useRealTimers();
    capture?.cleanup();
  });
  return {
    get core() {
      return core!;
    },
    get capture() {
      return capture!;
    },
    onShowScan,
    onOpen,
    start: () => setupNotifications({ core: core!, onShowScan, onOpen, log: capture!.log, windowMs: options.windowMs, timers: realTimers }),
  };
}
