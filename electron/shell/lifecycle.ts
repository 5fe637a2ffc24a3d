// Quitting: the app waits for its cleanup (closing the core: database, local
// service, watchers) before the process ends, and closes only once.
import { app } from 'electron';
import type { Logger } from '../logging/logger.ts';

export type QuitPhase = 'running' | 'closing' | 'closed';

/** Pure: whether a quit may proceed now, and whether it starts the cleanup. */
export function onQuitRequest(phase: QuitPhase): { allow: boolean; startCleanup: boolean } {
  if (phase === 'closed') return { allow: true, startCleanup: false };
  return { allow: false, startCleanup: phase === 'running' };
}

export function closeBeforeQuit(cleanup: () => Promise<void>, log: Logger, beforeQuit: () => void): void {
  let phase: QuitPhase = 'running';
  app.on('before-quit', beforeQuit);
  app.on('will-quit', (event) => {
    const decision = onQuitRequest(phase);
    if (decision.allow) return;
    event.preventDefault();
    if (!decision.startCleanup) return;
    phase = 'closing';
    cleanup()
      .catch((error: unknown) => log.error({ err: error }, 'cleanup before quit failed'))
      .finally(() => {
        phase = 'closed';
        log.info('quit');
        app.quit();
      });
  });
}
