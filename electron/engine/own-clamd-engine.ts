// The ClamAV engine on Verdict's own clamd: scans like any clamd, and closing the
// engine stops the clamd it owns (the service closes its engine when it stops).
// A finding from a signature feed in Verdict's own folder says which feed (electron/feeds/).
import { dirname } from 'node:path';
import { attributeFeeds } from '../feeds/attribute-findings.ts';
import { ClamdEngine, type ClamdEngineOptions } from './clamd-engine.ts';
import type { EngineVerdict, ScanOptions } from './engine.ts';
import type { OwnClamd } from './own-clamd/own-clamd.ts';

export class OwnClamdEngine extends ClamdEngine {
  readonly clamd: OwnClamd;

  constructor(clamd: OwnClamd, socketPath: string, options: Omit<ClamdEngineOptions, 'endpoint'> = {}) {
    super({ ...options, endpoint: { socketPath } });
    this.clamd = clamd;
  }

  override async scan(filePath: string, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    return this.#withFeeds(await super.scan(filePath, signal, options));
  }

  override async scanBytes(content: Buffer, signal?: AbortSignal, options?: ScanOptions): Promise<EngineVerdict> {
    return this.#withFeeds(await super.scanBytes(content, signal, options));
  }

  /** Feeds live in Verdict's own folder (<data dir>/clamav-db): only a clamd loading that folder has their signatures. */
  #withFeeds(verdict: EngineVerdict): EngineVerdict {
    const state = this.clamd.state;
    return state.status === 'running' && state.databaseOrigin === 'own' ? attributeFeeds(verdict, dirname(state.databaseDir)) : verdict;
  }

  override async close(): Promise<void> {
    // The sessions first, then the clamd they talk to.
    await super.close();
    await this.clamd.close();
  }
}
