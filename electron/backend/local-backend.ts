// Starts the embedded File Scanning Service for the app or the CLI: loopback,
// a free port, the key of this run, its data under <dataDir>/local-service.
import { startLocalService } from '../local-service/server.ts';
import type { EngineKind } from '../local-service/engines/select-engine.ts';

export interface LocalServiceHandle {
  url: string;
  close(): Promise<void>;
}

export type LocalServiceStarter = (input: { apiKey: string; dataDir: string }) => Promise<LocalServiceHandle>;

export interface EmbeddedServiceOptions {
  engine?: EngineKind;
  clamdSocket?: string;
  scanDelayMs?: number;
  syncWindowMs?: number;
}

export function embeddedServiceStarter(options: EmbeddedServiceOptions = {}): LocalServiceStarter {
  return async ({ apiKey, dataDir }) => {
    const service = await startLocalService({
      host: '127.0.0.1',
      port: 0,
      apiKeys: [apiKey],
      dataDir,
      engine: { kind: options.engine ?? 'auto', ...(options.clamdSocket ? { clamdSocket: options.clamdSocket } : {}) },
      ...(options.scanDelayMs !== undefined ? { scanDelayMs: options.scanDelayMs } : {}),
      ...(options.syncWindowMs !== undefined ? { syncWindowMs: options.syncWindowMs } : {}),
    });
    return { url: service.url, close: () => service.close() };
  };
}
