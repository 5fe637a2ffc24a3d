/**
 * What the crash tests' child processes share: a core that scans through a
 * service given by URL and key with short retries, and a SIGKILL armed at a
 * named point, so a test can kill a batch exactly where it wants.
 *
 * ```ts
 * const core = await openCrashCore({ dataDir, serviceUrl, apiKey });
 * armKill(core, 'processing:4'); // the 4th record that turns processing; `time:400` kills after 400 ms
 * ```
 */
import { createCore, type CoreInternals, type CoreTuning } from '../../electron/core/create-core.ts';
import type { ScanEvent } from '../../shared/scans/record.ts';

/** The kill points by kind: `kind:n` dies at the nth event that matches. */
const KILL_POINTS: Readonly<Record<string, (event: ScanEvent) => boolean>> = {
  queued: (event) => event.type === 'record' && event.record.status === 'queued' && event.record.pendingReason === null,
  fingerprinting: (event) => event.type === 'record' && event.record.pendingReason === 'fingerprinting',
  progress: (event) => event.type === 'progress',
  uploading: (event) => event.type === 'progress' && event.progress.sent < event.progress.total,
  'awaiting-answer': (event) => event.type === 'progress' && event.progress.sent === event.progress.total,
  processing: (event) => event.type === 'record' && event.record.status === 'processing',
  completed: (event) => event.type === 'record' && event.record.status === 'completed',
};

export function openCrashCore(input: { dataDir: string; serviceUrl: string; apiKey: string; budget?: CoreTuning['budget'] }): Promise<CoreInternals> {
  return createCore(
    { dataDir: input.dataDir, serviceOverride: { baseUrl: input.serviceUrl, apiKey: input.apiKey } },
    {
      watch: false,
      poll: { initialDelayMs: 50, maxDelayMs: 300 },
      clientRetry: { baseDelayMs: 20, maxDelayMs: 200 },
      retryBaseMs: 50,
      retryMaxMs: 300,
      budget: input.budget ?? { ratePerSecond: 1000, burst: 1000 },
    },
  );
}

/** `kind:n` (see KILL_POINTS) or `time:ms`; empty or undefined: never. An unknown kind throws, so a typo cannot pass as "not reached". */
export function armKill(core: CoreInternals, spec: string | undefined): void {
  if (!spec) return;
  const [kind = '', nth = '0'] = spec.split(':');
  const target = Number(nth);
  const die = () => process.kill(process.pid, 'SIGKILL');
  if (kind === 'time') {
    setTimeout(die, target);
    return;
  }
  const matches = KILL_POINTS[kind];
  if (!matches) throw new Error(`Unknown kill point ${JSON.stringify(spec)}; expected time:<ms> or one of ${Object.keys(KILL_POINTS).join(', ')} with :<n>`);
  let seen = 0;
  core.onEvent((event) => {
    if (matches(event) && ++seen >= target) die();
  });
}
