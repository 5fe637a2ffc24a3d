// Faults on the wire, injected by a proxy in front of the real local service,
// mixed into one batch: resets before any byte, during the upload and during the
// response, 5xx, 429, an answer slower than the client's timeout, a body that is
// not JSON, one of the wrong shape and a truncated one. At the end every file has
// exactly one scan at the service and one completed history row.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.ts';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.ts';
import { FAST, startTestService, tempDir, writeFiles, type TestService } from './harness.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let service: TestService;
let proxy: FaultProxy;

beforeEach(async () => {
  dir = await tempDir('verdict-faults-');
  service = await startTestService(join(dir.path, 'service'), { scanDelayMs: 30 });
  proxy = await startFaultProxy(service.url);
});
afterEach(async () => {
  await proxy.close();
  await service.close();
  await dir.remove();
});

describe.each(['sync', 'async'] as const)('faults in %s mode', (mode) => {
  it('loses nothing and duplicates nothing', async () => {
    const post = mode === 'sync' ? '/file-scans/sync' : '/file-scans';
    proxy.addRule({ method: 'POST', path: post, nth: [2, 11], fault: { kind: 'reset' } });
    proxy.addRule({ method: 'POST', path: post, nth: 3, fault: { kind: 'reset-during-upload', afterBytes: 200 } });
    proxy.addRule({ method: 'POST', path: post, nth: [4, 12], fault: { kind: 'reset-during-response' } });
    proxy.addRule({ method: 'POST', path: post, nth: 5, fault: { kind: 'status', status: 500 } });
    proxy.addRule({ method: 'POST', path: post, nth: 6, fault: { kind: 'status', status: 503, retryAfter: 1 } });
    proxy.addRule({ method: 'POST', path: post, nth: 7, fault: { kind: 'status', status: 429, retryAfter: new Date(Date.now() + 1000) } });
    proxy.addRule({ method: 'POST', path: post, nth: 8, fault: { kind: 'replace-body', body: '<html>gateway</html>', contentType: 'text/html' } });
    proxy.addRule({ method: 'POST', path: post, nth: 9, fault: { kind: 'replace-body', body: { hello: 'world' } } });
    proxy.addRule({ method: 'POST', path: post, nth: 10, fault: { kind: 'truncate-body' } });
    proxy.addRule({ method: 'POST', path: post, nth: 13, fault: { kind: 'delay', ms: 1500 } });
    proxy.addRule({ method: 'GET', nth: [2, 5], fault: { kind: 'reset-during-response' } });
    proxy.addRule({ method: 'GET', nth: [3, 7], fault: { kind: 'replace-body', body: 'not json' } });
    proxy.addRule({ method: 'GET', nth: 4, fault: { kind: 'status', status: 502 } });

    const core = await createCore(
      { dataDir: join(dir.path, 'data'), serviceOverride: { baseUrl: proxy.url, apiKey: service.key } },
      { ...FAST, timeouts: { headersMs: 800, syncHeadersMs: 800, bodyMs: 800 } },
    );
    try {
      await mkdir(join(dir.path, 'files'));
      const files = await writeFiles(join(dir.path, 'files'), 30);
      const submitted = await core.submit(files, { origin: 'cli', mode });
      if (!submitted.ok) throw new Error(submitted.error.message);
      await core.idle();
      for (const id of submitted.value.ids) {
        const record = await core.scans.get(id);
        if (!record.ok) throw new Error(record.error.message);
        expect(record.value, record.value.path).toMatchObject({ status: 'completed', safe: true, pendingReason: null, error: null });
        const atService = await service.byReference(record.value.externalReferenceId);
        expect(atService.body.id).toBe(record.value.serviceScanId);
      }
      expect(service.scanCount()).toBe(30);
      expect(proxy.count({ faulted: true })).toBeGreaterThanOrEqual(13);
    } finally {
      await core.close();
    }
  });
});
