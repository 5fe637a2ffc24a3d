// Worker-thread entry of the local service (see start-in-thread.ts): starts
// startLocalService with the options it was given, reports the URL or why it
// could not start, forwards warnings and errors, and closes on request. It also
// scans files for the app straight with the service's engine (engine-requests.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { ServiceLogger } from '../logger.ts';
import { describeEngine } from '../../engine/select-engine.ts';
import { startLocalService, type LocalService } from '../server.ts';
import { createEngineRequests } from './engine-requests.ts';
import { WAIT_FOR_START, type ThreadStart } from './warm-thread.ts';
import { errorData, plainFields, type EngineReport, type EngineScanOutcome, type EngineScanRequest, type FromThread, type LogLevel, type ThreadServiceOptions, type ToThread } from './thread-protocol.ts';

interface ThreadData {
  options: ThreadServiceOptions;
  /** Levels forwarded to the app; the others cost nothing. */
  levels: readonly LogLevel[];
}

const port = parentPort;
if (!port) throw new Error('service-thread.ts runs only as a worker thread (start it with startLocalServiceInThread).');

const post = (message: FromThread) => port.postMessage(message);
// Started early (warm-thread.ts): the options come as the first message; nothing else is sent before the thread says it is ready.
const { options, levels } = workerData === WAIT_FOR_START ? await new Promise<ThreadStart>((resolve) => port.once('message', resolve)) : (workerData as ThreadData);

const forward =
  (level: LogLevel) =>
  (fields: object, message: string): void => {
    post({ type: 'log', level, fields: plainFields(fields), message });
  };
const noop = () => {};
const logger: ServiceLogger = {
  info: levels.includes('info') ? forward('info') : noop,
  warn: levels.includes('warn') ? forward('warn') : noop,
  error: levels.includes('error') ? forward('error') : noop,
  isLevelEnabled: (level) => levels.includes(level),
};

const starting: Promise<LocalService> = startLocalService({ ...options, logger });
let closing: Promise<void> | null = null;

const reportOf = (service: LocalService | null): EngineReport => ({ status: service?.live?.status ?? null, databaseDir: service?.live?.databaseDir ?? null });
let started: LocalService | null = null;
const engineRequests = createEngineRequests(starting, logger);
/** The app's scan-file requests in progress, by id. */
const atEngine = new Map<number, AbortController>();

/** Answers ready in this turn, sent together once it ends: one message (and one wake-up of the app) for many files. */
let answers: Array<{ id: number; outcome: EngineScanOutcome }> = [];
const sendAnswers = () => {
  const due = answers;
  answers = [];
  // Stopped by the close: no verdict, and none is claimed (the app sends the file again when its thread is gone).
  if (!closing) post({ type: 'scan-files-done', answers: due });
};

function scanFile(id: number, request: EngineScanRequest): void {
  const controller = new AbortController();
  atEngine.set(id, controller);
  if (closing) controller.abort();
  void engineRequests.scan(request, controller.signal).then((outcome) => {
    atEngine.delete(id);
    if (closing) return;
    if (answers.length === 0) setImmediate(sendAnswers);
    answers.push({ id, outcome });
  });
}

port.on('message', (message: ToThread) => {
  if (message.type === 'scan-files') {
    for (const file of message.files) scanFile(file.id, file.request);
    return;
  }
  if (message.type === 'scan-file-abort') return void atEngine.get(message.id)?.abort();
  if (message.type === 'recorded') {
    // Before start-up has finished nothing can have been recorded; after close, nothing is deleted.
    if (!closing) started?.forgetRecorded(message.integrationId, message.scanIds);
    return;
  }
  if (message.type === 'check-engine') {
    void (async () => {
      const service = await starting.catch(() => null);
      await service?.live?.check().catch(() => undefined);
      post({ type: 'engine-checked', id: message.id, report: reportOf(service) });
    })();
    return;
  }
  if (message.type === 'set-database-dir') {
    // The engine reports its states (starting, then the new folder's) as they change.
    void starting.then((service) => service.live?.setDatabaseDir(message.databaseDir ?? undefined)).catch(() => undefined);
    return;
  }
  if (message.type === 'set-detection') {
    void starting.then((service) => service.live?.setDetection(message.detection)).catch(() => undefined);
    return;
  }
  if (message.type === 'allow-basic-only') {
    // Scan ids of the service's scans, or references of files at the engine: each side takes its own.
    engineRequests.allowBasicOnly(message.scanIds);
    void starting.then((service) => service.allowBasicOnly(message.scanIds)).catch(() => undefined);
    return;
  }
  if (message.type !== 'close') return;
  for (const controller of atEngine.values()) controller.abort();
  closing ??= (async () => {
    // A close that arrives during start-up waits for it, so no listener is left behind.
    const service = await starting.catch(() => null);
    await service?.close();
    post({ type: 'closed' });
    // Nothing may keep the thread alive now: the parent waits for it to exit.
    port.close();
  })();
});

try {
  const service = await starting;
  started = service;
  post({ type: 'ready', url: service.url, port: service.port, engine: describeEngine(service.engine), report: reportOf(service) });
  service.live?.onChange(() => post({ type: 'engine', report: reportOf(service) }));
  service.onFinished((scanIds) => post({ type: 'finished', scanIds: [...scanIds] }));
} catch (error) {
  post({ type: 'start-failed', error: errorData(error) });
  port.close();
}
