// The service client against the real local service on loopback (through the
// fault proxy, which forwards untouched unless a test adds a rule).
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readFile, truncate } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, newRef, rejection, useFixture, waitFor, type Fixture } from './fixture.ts';
import { describeFailure } from '../../../electron/scans/failure-text.ts';
import { SINGLE_BUFFER_BYTES } from '../../../electron/service-client/multipart-body.ts';

let fx: Fixture;
useFixture((started) => (fx = started));

const sha256 = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');

describe('submissions and lookups', () => {
  it('submits async, then finds the scan by id and by reference until it completes', async () => {
    const client = fx.client();
    const file = await fx.file('async-basic.txt', 'hello async');
    const ref = newRef('async');
    const submitted = await client.submitAsync(file, { external_reference_id: ref });
    expect(submitted).toMatchObject({ status: 'processing', execution_mode: 'async', file_name: 'async-basic.txt', file_size: 11, external_reference_id: ref });

    const done = await waitFor(async () => {
      const scan = await client.getScan(submitted.id);
      return scan.status === 'completed' ? scan : null;
    });
    expect(done.id).toBe(submitted.id);
    expect(done.result?.safe).toBe(true);
    expect(done.file_hash?.sha256).toBe(await sha256(file.path));

    const byRef = await client.getByReference(ref);
    expect(byRef.id).toBe(submitted.id);
  });

  it('submits sync and gets the terminal scan; the uploaded bytes arrive intact', async () => {
    const client = fx.client();
    const file = await fx.file('sync-5mb.bin', 5 * 1024 * 1024 + 123);
    const scan = await client.submitSync(file, { external_reference_id: newRef('sync') });
    expect(scan.status).toBe('completed');
    expect(scan.execution_mode).toBe('sync');
    expect(scan.file_size).toBe(file.size);
    expect(scan.file_hash?.sha256).toBe(await sha256(file.path));
  });

  it('streams a larger file through the buffer ring without mixing up chunks', async () => {
    const client = fx.client();
    const file = await fx.file('async-24mb.bin', 24 * 1024 * 1024 + 7);
    const result = await client.submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('big') });
    const done = await waitFor(async () => {
      const scan = await client.getScan(result.scan.id);
      return scan.status === 'completed' ? scan : null;
    });
    expect(done.file_hash?.sha256).toBe(await sha256(file.path));
  });

  it('sends the file name and reference exactly, even with quotes and non-ASCII', async () => {
    const client = fx.client();
    const name = 'quote "x" ümlaut 📄.txt';
    const file = await fx.file('odd-name.txt', 'odd');
    const scan = await client.submitSync({ ...file, name }, { external_reference_id: newRef('odd#ref@x:y') });
    expect(scan.file_name).toBe(name);
  });

  it('reports upload progress rising monotonically to the body size', async () => {
    const client = fx.client();
    const file = await fx.file('progress.bin', 3 * 1024 * 1024 + 5);
    const events: { sent: number; total: number }[] = [];
    await client.submitAsync(file, { external_reference_id: newRef('progress') }, { onProgress: (p) => events.push(p) });
    expect(events.length).toBeGreaterThan(10);
    for (let i = 1; i < events.length; i++) expect(events[i]!.sent).toBeGreaterThan(events[i - 1]!.sent);
    const last = events.at(-1)!;
    expect(last.sent).toBe(last.total);
    // The total is the request's Content-Length: file plus a few hundred bytes of multipart framing.
    const post = fx.proxy.requests.find((r) => r.method === 'POST');
    expect(post?.contentLength).toBe(last.total);
    expect(last.total - file.size).toBeGreaterThan(0);
    expect(last.total - file.size).toBeLessThan(1024);
  });

  it('sends a small file as one buffer: byte-exact at the limit and past it, progress reported once', async () => {
    const client = fx.client();
    for (const size of [0, 1, SINGLE_BUFFER_BYTES - 1, SINGLE_BUFFER_BYTES, SINGLE_BUFFER_BYTES + 1]) {
      const file = await fx.file(`single-${size}.bin`, size === 0 ? Buffer.alloc(0) : size);
      const events: { sent: number; total: number }[] = [];
      const scan = await client.submitSync(file, { external_reference_id: newRef(`single-${size}`) }, { onProgress: (p) => events.push(p) });
      expect(scan.file_size).toBe(size);
      expect(scan.file_hash?.sha256).toBe(await sha256(file.path));
      const post = fx.proxy.requests.filter((r) => r.method === 'POST').at(-1);
      expect(events.at(-1)).toEqual({ sent: post?.contentLength, total: post?.contentLength });
      if (size <= SINGLE_BUFFER_BYTES) expect(events).toHaveLength(1);
      else expect(events.length).toBeGreaterThan(1);
    }
  });

  it('keeps unknown fields of a scan', async () => {
    const client = fx.client();
    const file = await fx.file('unknown-fields.txt', 'x');
    const scan = await client.submitSync(file, { external_reference_id: newRef('unknown') });
    fx.proxy.addRule({ method: 'GET', fault: { kind: 'replace-body', body: { ...scan, future_field: { nested: 1 } } } });
    const again = await client.getScan(scan.id);
    expect((again as Record<string, unknown>).future_field).toEqual({ nested: 1 });
  });

  it('sends Content-Language so service messages come in the chosen language', async () => {
    const en = await rejection(fx.client({ language: () => 'en' }).getScan('00000000-0000-4000-8000-000000000000'), 'not_found');
    const de = await rejection(fx.client({ language: () => 'de' }).getScan('00000000-0000-4000-8000-000000000000'), 'not_found');
    expect(de.message).not.toBe(en.message);
  });
});

describe('408 and 409', () => {
  it('adopts the existing scan when the reference was already used (409)', async () => {
    const client = fx.client();
    const file = await fx.file('dup.txt', 'duplicate me');
    const ref = newRef('dup');
    const first = await client.submitAsync(file, { external_reference_id: ref });
    const raw = await rejection(client.submitAsync(file, { external_reference_id: ref }), 'duplicate_reference');
    expect(raw.status).toBe(409);

    const resolved = await client.submitAndResolve(file, { mode: 'sync', externalReferenceId: ref });
    expect(resolved.via).toBe('adopted');
    expect(resolved.scan.id).toBe(first.id);
    expect(fx.scansAtService('dup.txt')).toBe(1);
  });

  it('finds a scan for crash recovery by reference, and null for an unknown one', async () => {
    const client = fx.client();
    const file = await fx.file('recover.txt', 'recover me');
    const ref = newRef('recover');
    const submitted = await client.submitAsync(file, { external_reference_id: ref });
    expect((await client.recoverByReference(ref))?.id).toBe(submitted.id);
    expect(await client.recoverByReference(newRef('never-sent'))).toBeNull();
  });
});

describe('errors', () => {
  it('401: kind unauthorized, never retried; a new key takes effect without a restart', async () => {
    let key = 'a-wrong-key-0000';
    const client = fx.client({ apiKey: () => key });
    const file = await fx.file('auth.txt', 'auth');
    const ref = newRef('auth');
    const error = await rejection(client.submitAndResolve(file, { mode: 'async', externalReferenceId: ref }), 'unauthorized');
    expect(error.status).toBe(401);
    expect(fx.proxy.count({ method: 'POST' })).toBe(1);

    key = API_KEY;
    const ok = await client.submitAndResolve(file, { mode: 'async', externalReferenceId: ref });
    expect(ok.via).toBe('submitted');
  });

  it('no key (or an unusable one) is unauthorized without sending anything', async () => {
    const file = await fx.file('nokey.txt', 'x');
    await rejection(fx.client({ apiKey: () => null }).submitAsync(file, {}), 'unauthorized');
    await rejection(fx.client({ apiKey: async () => '  ' }).getScan('x'), 'unauthorized');
    const bad = await rejection(fx.client({ apiKey: () => 'has space inside' }).getScan('x'), 'unauthorized');
    expect(bad.message).not.toContain('has space inside');
    expect(fx.proxy.count()).toBe(0);
  });

  it('413 keeps the service message naming the limit', async () => {
    const client = fx.client();
    const file = await fx.file('too-big-for-sync.bin', 10 * 1024 * 1024 + 1);
    const error = await rejection(client.submitAndResolve(file, { mode: 'sync', externalReferenceId: newRef('413') }), 'file_too_large', [fx.dir]);
    expect(error.status).toBe(413);
    expect(error.message).toMatch(/10 MB/);
    expect(fx.proxy.count({ method: 'POST' })).toBe(1);
  });

  it('rejects an invalid reference before sending anything', async () => {
    const client = fx.client();
    const file = await fx.file('badref.txt', 'x');
    await rejection(client.submitAsync(file, { external_reference_id: 'has space' }), 'invalid_request');
    await rejection(client.getByReference('a'.repeat(256)), 'invalid_request');
    expect(fx.proxy.count()).toBe(0);
  });

  it('a missing or changed local file is file_unreadable, without the path in the message', async () => {
    const client = fx.client();
    const file = await fx.file('vanishing.txt', 'here today');
    await rejection(client.submitAsync({ ...file, path: `${file.path}.gone` }, {}), 'file_unreadable', [fx.dir]);
    await truncate(file.path, 3);
    const changed = await rejection(client.submitAsync(file, {}), 'file_unreadable', [fx.dir]);
    expect(changed.message).toMatch(/changed/);
    // What the UI words it from: the sizes at intake and now, never the path.
    expect(changed.params).toEqual({ cause: 'upload_problem', upload: 'size_changed', before: file.size, after: 3 });
    expect(fx.proxy.count()).toBe(0);
  });

  it('a file rewritten while it is sent is refused and no scan is created', async () => {
    const client = fx.client();
    const file = await fx.file('rewritten.bin', 8 * 1024 * 1024);
    let rewritten = false;
    const error = await rejection(
      client.submitAsync(file, { external_reference_id: newRef('rewritten') }, {
        onProgress: ({ sent }) => {
          if (!rewritten && sent > 1024 * 1024) {
            rewritten = true;
            // Same size, new content and mtime: only the end-of-upload check can notice.
            // Synchronous, so the change surely lands before the upload ends.
            writeFileSync(file.path, Buffer.alloc(file.size, 1));
          }
        },
      }),
      'file_unreadable',
      [fx.dir],
    );
    expect(error.message).toMatch(/changed/);
    expect(fx.scansAtService('rewritten.bin')).toBe(0);
  });

  describe('malformed answers', () => {
    let scanId: string;
    beforeAll(async () => {
      const file = await fx.file('malformed.txt', 'm');
      scanId = (await fx.client().submitSync(file, { external_reference_id: newRef('malformed') })).id;
    });

    it('a non-JSON (HTML) body', async () => {
      fx.proxy.addRule({ method: 'GET', fault: { kind: 'replace-body', body: '<html><body>Welcome to nginx!</body></html>' } });
      const error = await rejection(fx.client().getScan(scanId), 'malformed_response');
      expect(error.message).toMatch(/not JSON \(text\/html\)/);
      expect(error.message).toContain('Welcome to nginx');
      // Verdict's own sentence, kept with what the UI words it from in its language.
      expect(error.params).toMatchObject({ cause: 'answer_not_understood', operation: 'GET /file-scans/{id}', detail: expect.stringContaining('Welcome to nginx') });
      expect(error.message).toBe(describeFailure(error.params!));
    });

    it('JSON of the wrong shape names the field', async () => {
      const scan = await fx.client().getScan(scanId);
      fx.proxy.addRule({ method: 'GET', fault: { kind: 'replace-body', body: { ...scan, result: { ...scan.result, safe: 'yes' } } } });
      const error = await rejection(fx.client().getScan(scanId), 'malformed_response');
      expect(error.message).toMatch(/result\.safe: expected boolean/);
    });

    it('a completed scan without its verdict is never a verdict', async () => {
      const { result: _result, ...scan } = await fx.client().getScan(scanId);
      fx.proxy.addRule({ method: 'GET', fault: { kind: 'replace-body', body: scan } });
      const error = await rejection(fx.client().getScan(scanId), 'malformed_response');
      expect(error.message).toMatch(/result: missing in a completed scan/);
    });

    it('a truncated body', async () => {
      fx.proxy.addRule({ method: 'GET', fault: { kind: 'truncate-body' } });
      const error = await rejection(fx.client().getScan(scanId), 'malformed_response');
      expect(error.message).toMatch(/truncated/);
    });

    it('an empty 200', async () => {
      fx.proxy.addRule({ method: 'GET', fault: { kind: 'replace-body', body: '' } });
      const error = await rejection(fx.client().getScan(scanId), 'malformed_response');
      expect(error.message).toMatch(/empty/);
    });

    it('an unreadable answer to a POST is resolved by reference: one scan, adopted', async () => {
      const file = await fx.file('malformed-post.txt', 'mp');
      fx.proxy.addRule({ method: 'POST', times: 1, fault: { kind: 'replace-body', body: 'Internal proxy garbage' } });
      const resolved = await fx.client().submitAndResolve(file, { mode: 'async', externalReferenceId: newRef('mp') });
      expect(resolved.via).toBe('adopted');
      expect(fx.scansAtService('malformed-post.txt')).toBe(1);
    });
  });

  it('never puts the API key in a message, even when the service echoes it', async () => {
    fx.proxy.addRule({
      method: 'GET',
      fault: { kind: 'status', status: 400, body: { code: 'invalid_request', message: `Bad key ${API_KEY} for you` } },
    });
    const error = await rejection(fx.client().getScan('anything'), 'invalid_request');
    expect(error.message).toContain('[redacted]');
    // The service's own words: shown as it wrote them, so no parameters.
    expect(error.params).toBeUndefined();
  });

  it('never puts the API key in the parameters of a message Verdict words itself (an echoed body)', async () => {
    fx.proxy.addRule({ method: 'GET', fault: { kind: 'status', status: 200, body: `<html>${API_KEY}</html>`, contentType: 'text/html' } });
    const echoed = await rejection(fx.client().getScan('anything'), 'malformed_response');
    expect(echoed.params).toMatchObject({ cause: 'answer_not_understood', detail: expect.stringContaining('[redacted]') });
    expect(JSON.stringify(echoed.params)).not.toContain(API_KEY);
    expect(echoed.message).not.toContain(API_KEY);
  });

  it('cancels via AbortSignal: before, during the upload, and during a retry wait', async () => {
    const client = fx.client();
    await rejection(client.getScan('x', { signal: AbortSignal.abort() }), 'aborted');

    const file = await fx.file('abort.bin', 16 * 1024 * 1024);
    const controller = new AbortController();
    await rejection(
      client.submitAsync(file, { external_reference_id: newRef('abort') }, { signal: controller.signal, onProgress: ({ sent }) => sent > 1024 * 1024 && controller.abort() }),
      'aborted',
    );
    await waitFor(() => fx.scansAtService('abort.bin') === 0);

    fx.proxy.addRule({ method: 'GET', fault: { kind: 'status', status: 503, retryAfter: 5 } });
    const waiting = new AbortController();
    const pending = client.recoverByReference(newRef('abort-wait'), { signal: waiting.signal, onRetry: () => waiting.abort() });
    await rejection(pending, 'aborted');
  });
});
