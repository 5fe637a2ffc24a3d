// The ClamAV engine on Verdict's own clamd: scans like any clamd, and closing the
// engine stops the clamd it owns (the service closes its engine when it stops).
import { ClamdEngine, type ClamdEngineOptions } from './clamd-engine.ts';
import type { OwnClamd } from './own-clamd/own-clamd.ts';

export class OwnClamdEngine extends ClamdEngine {
  readonly clamd: OwnClamd;

  constructor(clamd: OwnClamd, socketPath: string, options: Omit<ClamdEngineOptions, 'endpoint'> = {}) {
    super({ ...options, endpoint: { socketPath } });
    this.clamd = clamd;
  }

  override async close(): Promise<void> {
    // The sessions first, then the clamd they talk to.
    await super.close();
    await this.clamd.close();
  }
}
