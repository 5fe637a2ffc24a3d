/**
 * What the crash tests' child processes share: a core that scans through a
 * service given by URL and key (or its embedded one with the built-in engine)
 * with short retries, and a SIGKILL armed at a named point, so a test can kill
 * a batch, or a quarantine action, exactly where it wants.
 *
 * ```ts
 * const core = await openCrashCore({ dataDir, serviceUrl, apiKey });
 * const local = await openCrashCore({ dataDir, clamdSocket }); // the local engine path to a real clamd
 * armKill(core, 'processing:4'); // the 4th record that turns processing; `time:400` kills after 400 ms
 * const other = await openCrashCore({ dataDir, killAtQuarantineStep: 'restore:placed' });
 * ```
 */
import { createCore, type CoreInternals, type CoreTuning } from '../../electron/core/create-core.ts';
import { QUARANTINE_STEPS, type QuarantineStep } from '../../electron/quarantine/quarantine.ts';
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

const die = () => process.kill(process.pid, 'SIGKILL');

/** The service to scan with, or none: the embedded one with the built-in engine, or the local engine path to this clamd. */
type CrashService =
  | { serviceUrl: string; apiKey: string; clamdSocket?: undefined }
  | { serviceUrl?: undefined; apiKey?: undefined; clamdSocket?: string };

export function openCrashCore(
  input: CrashService & {
    dataDir: string;
    budget?: CoreTuning['budget'];
    /** A QuarantineStep name: the process dies there, in the middle of a quarantine, restore, allow or delete. */
    killAtQuarantineStep?: string;
  },
): Promise<CoreInternals> {
  const service =
    input.serviceUrl !== undefined
      ? { serviceOverride: { baseUrl: input.serviceUrl, apiKey: input.apiKey } }
      : input.clamdSocket !== undefined
        ? { localService: { engine: 'clamd' as const, clamdSocket: input.clamdSocket } }
        : { localService: { engine: 'builtin' as const } };
  return createCore(
    { dataDir: input.dataDir, keychainService: `verdict-crash-test-${process.pid}`, ...service },
    {
      watch: false,
      onQuarantineStep: quarantineKill(input.killAtQuarantineStep),
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

/** The step hook that dies at `step`; an unknown name throws, so a typo cannot pass as "not reached". */
function quarantineKill(step: string | undefined): CoreTuning['onQuarantineStep'] {
  if (!step) return undefined;
  if (!(QUARANTINE_STEPS as readonly string[]).includes(step)) throw new Error(`Unknown quarantine step ${JSON.stringify(step)}; expected one of ${QUARANTINE_STEPS.join(', ')}`);
  return (reached: QuarantineStep) => {
    if (reached === step) die();
  };
}
