// A worker thread that runs the real local service (startLocalService) for the
// multipart target: a crash of the service ends this thread only, and the
// target sees it as the 'error' of its Worker.
import { parentPort, workerData } from 'node:worker_threads';
import { startLocalService } from '../../../../electron/local-service/server.ts';

const { dataDir, apiKey } = workerData as { dataDir: string; apiKey: string };
const service = await startLocalService({ apiKeys: [apiKey], dataDir, engine: { kind: 'builtin' }, rateLimit: false, syncWindowMs: 10_000 });
parentPort?.postMessage({ port: service.port });
parentPort?.on('message', (message) => {
  if (message === 'close') void service.close().then(() => parentPort?.close());
});
