// Starts the embedded File Scanning Service for the app or the CLI: loopback,
// a free port, the key of this run, its data under <dataDir>/local-service.
import { startLocalService } from '../local-service/server.ts';
import type { EngineKind } from '../local-service/engines/select-engine.ts';

/** The one integration the app uses on its embedded service. */
export const EMBEDDED_INTEGRATION_ID = 'verdict-embedded';

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
      // The key changes every run; pinning the integration keeps earlier runs' scans
      // findable by reference, so crash recovery adopts them instead of scanning twice.
      apiKeys: [{ key: apiKey, integrationId: EMBEDDED_INTEGRATION_ID }],
      dataDir,
      engine: { kind: options.engine ?? 'auto', ...(options.clamdSocket ? { clamdSocket: options.clamdSocket } : {}) },
      ...(options.scanDelayMs !== undefined ? { scanDelayMs: options.scanDelayMs } : {}),
      ...(options.syncWindowMs !== undefined ? { syncWindowMs: options.syncWindowMs } : {}),
    });
    return { url: service.url, close: () => service.close() };
  };
}
