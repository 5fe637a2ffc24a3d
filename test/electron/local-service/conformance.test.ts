// The spec's tables, row by row, against the real service over loopback:
// both submission modes, both GETs, states, authentication, every error and
// the external_reference_id rules. Success bodies are parsed with the shared
// schemas, and every answer is checked against the published OpenAPI document
// (openapi-contract.ts). Malformed submissions and the transport: conformance-uploads.test.ts.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../shared/service-contract/errors.ts';
import { asyncSubmissionSchema, scanSchema, terminalScanSchema } from '../../../shared/service-contract/scan.ts';
import { EICAR_TEST_STRING } from '../../../electron/engine/builtin-engine.ts';
import { expectError } from './conformance-kit.ts';
import {
  FailingEngine,
  GatedEngine,
  KEY_A,
  KEY_B,
  getByReference,
  getScan,
  send,
  startTestService,
  submit,
  waitForTerminal,
  type Reply,
  type TestService,
} from './harness.ts';
import { checkRepliesAgainstOpenApi } from './openapi-contract.ts';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let service: TestService;
let url: string;
let uniq = 0;
const ref = (label: string) => `conformance/${label}:${process.pid}-${++uniq}`;

beforeAll(async () => {
  service = await startTestService();
  url = service.url;
  return checkRepliesAgainstOpenApi();
});
afterAll(() => service.close());

describe('POST /file-scans (async)', () => {
  it('answers 202 with exactly the seven submission fields, then completes', async () => {
    const reference = ref('async');
    const reply = await submit(url, { attributes: { file_name: 'report.txt', external_reference_id: reference }, file: 'abc' });
    expect(reply.status).toBe(202);
    const submission = asyncSubmissionSchema.parse(reply.body);
    expect(Object.keys(reply.body).sort()).toEqual(
      ['execution_mode', 'external_reference_id', 'file_name', 'file_size', 'id', 'status', 'submitted_at'].sort(),
    );
    expect(submission).toMatchObject({ status: 'processing', execution_mode: 'async', file_name: 'report.txt', file_size: 3, external_reference_id: reference });
    expect(submission.id).toMatch(UUID);
    expect(submission.submitted_at).toMatch(ISO_MS);
    expect(reply.headers.location).toBe(`/file-scans/${submission.id}`);

    const done = terminalScanSchema.parse((await waitForTerminal(url, submission.id)).body);
    expect(done).toMatchObject({ id: submission.id, status: 'completed', execution_mode: 'async', external_reference_id: reference, file_size: 3 });
    expect(done.result).toEqual({ safe: true, detailed: expect.any(String), findings: [] });
    expect(done.completed_at).toMatch(ISO_MS);
    expect(Date.parse(done.completed_at as string)).toBeGreaterThanOrEqual(Date.parse(done.submitted_at));
  });

  it('has six fields when no external_reference_id was given', async () => {
    const reply = await submit(url, { attributes: { file_name: 'a.txt' } });
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body).sort()).toEqual(['execution_mode', 'file_name', 'file_size', 'id', 'status', 'submitted_at']);
  });
});

describe('POST /file-scans/sync', () => {
  it('answers 200 with the full terminal scan', async () => {
    const reply = await submit(url, { mode: 'sync', attributes: { file_name: 'notes.txt' }, file: 'plain words\n' });
    expect(reply.status).toBe(200);
    const scan = terminalScanSchema.parse(reply.body);
    expect(scan).toMatchObject({ status: 'completed', execution_mode: 'sync', file_name: 'notes.txt', file_size: 12, file_type: 'text/plain' });
    expect(scan.result?.safe).toBe(true);
    // Decisions table, `engine`: who made the verdict (this service runs the built-in engine).
    expect(scan.engine).toEqual({ name: 'builtin', version: null, signatures: null });
    expect(scan.scan_duration_ms).toBeGreaterThanOrEqual(0);
    expect(scan.submitted_at).toMatch(ISO_MS);
    expect(scan).not.toHaveProperty('error');
    expect(scan).not.toHaveProperty('external_reference_id');
  });

  it('reports the EICAR test file as unsafe with a finding {name, engine}', async () => {
    const reply = await submit(url, { mode: 'sync', file: EICAR_TEST_STRING, attributes: { file_name: 'eicar.com' } });
    const scan = terminalScanSchema.parse(reply.body);
    expect(scan.result).toEqual({ safe: false, detailed: 'infected', findings: [{ name: 'EICAR-Test-File', engine: 'builtin' }] });
  });

  it('detects the media type from the content, not the name', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4bd0000000049454e44ae426082', 'hex');
    const asPng = terminalScanSchema.parse((await submit(url, { mode: 'sync', file: png, attributes: { file_name: 'looks-like.txt' } })).body);
    expect(asPng.file_type).toBe('image/png');
    const binary = Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0x10]);
    const asBinary = terminalScanSchema.parse((await submit(url, { mode: 'sync', file: binary, attributes: { file_name: 'x.png' } })).body);
    expect(asBinary.file_type).toBe('application/octet-stream');
    const utf8 = terminalScanSchema.parse((await submit(url, { mode: 'sync', file: 'Grüße, 世界\n', attributes: { file_name: 'x.bin' } })).body);
    expect(utf8.file_type).toBe('text/plain');
  });

  it('falls back to the multipart filename and strips paths and control characters', async () => {
    const fallback = await submit(url, { mode: 'sync', attributes: {}, partFileName: 'from-part.pdf' });
    expect(scanSchema.parse(fallback.body).file_name).toBe('from-part.pdf');
    const hostile = await submit(url, { mode: 'sync', attributes: { file_name: '../../etc/pass\u0000wd\u202e.txt' } });
    expect(scanSchema.parse(hostile.body).file_name).toBe('passwd.txt');
    const windows = await submit(url, { mode: 'sync', attributes: { file_name: 'C:\\Users\\me\\evil.exe' } });
    expect(scanSchema.parse(windows.body).file_name).toBe('evil.exe');
  });
});

describe('file_hash', () => {
  it('equals what sha256sum, sha1sum and md5sum print', async () => {
    const file = join(service.scratch, 'digest-me.bin');
    await writeFile(file, randomBytes(3 * 1024 * 1024 + 17));
    const reply = await submit(url, { mode: 'sync', file: await openAsBlob(file) });
    const scan = terminalScanSchema.parse(reply.body);
    const digest = (tool: string) => execFileSync(tool, [file], { encoding: 'utf8' }).split(/\s+/)[0];
    expect(scan.file_hash).toEqual({ md5: digest('md5sum'), sha1: digest('sha1sum'), sha256: digest('sha256sum') });
    expect(scan.file_size).toBe(3 * 1024 * 1024 + 17);
  });
});

describe('GET /file-scans/{id} and /file-scans/external-reference/{ref}', () => {
  it('return the same scan, by id and by reference', async () => {
    const reference = ref('lookup');
    const created = await submit(url, { mode: 'sync', attributes: { file_name: 'x.txt', external_reference_id: reference } });
    const id = terminalScanSchema.parse(created.body).id;
    const byId = await getScan(url, id);
    const byRef = await getByReference(url, reference);
    expect(byId.status).toBe(200);
    expect(byRef.status).toBe(200);
    expect(terminalScanSchema.parse(byId.body)).toEqual(created.body);
    expect(terminalScanSchema.parse(byRef.body)).toEqual(created.body);
  });

  it('accepts every allowed reference character, with the reference percent-encoded or its slashes raw', async () => {
    const reference = `Aa0._:/#@-${uniq++}`;
    expect((await submit(url, { mode: 'sync', attributes: { file_name: 'x', external_reference_id: reference } })).status).toBe(200);
    expect((await getByReference(url, reference)).body.external_reference_id).toBe(reference);
    const raw = await send(`${url}/file-scans/external-reference/${reference.replace('#', '%23')}`, { method: 'GET' });
    expect(raw.body.external_reference_id).toBe(reference);
  });

  it('shows a processing scan with the fields it has so far', async () => {
    const engine = new GatedEngine();
    const slow = await startTestService({ engine });
    try {
      const submitted = asyncSubmissionSchema.parse((await submit(slow.url, { attributes: { file_name: 'wait.txt' } })).body);
      const now = await getScan(slow.url, submitted.id);
      expect(now.status).toBe(200);
      const scan = scanSchema.parse(now.body);
      expect(scan.status).toBe('processing');
      expect(Object.keys(now.body).sort()).toEqual(['execution_mode', 'file_name', 'file_size', 'id', 'status', 'submitted_at']);
      engine.release();
      expect(terminalScanSchema.parse((await waitForTerminal(slow.url, submitted.id)).body).status).toBe('completed');
    } finally {
      await slow.close();
    }
  });
});

describe('401 unauthorized', () => {
  it.each([
    ['missing', null],
    ['unknown', 'not-a-configured-key'],
  ])('answers a %s key with 401 and WWW-Authenticate: Bearer on every endpoint', async (_label, key) => {
    const replies = [
      await submit(url, { key }),
      await submit(url, { key, mode: 'sync' }),
      await getScan(url, 'anything', { key }),
      await getByReference(url, 'anything', { key }),
    ];
    for (const reply of replies) {
      expectError(reply, 401, 'unauthorized');
      expect(String(reply.headers['www-authenticate'])).toMatch(/^Bearer /);
    }
  });

  it('rejects a malformed Authorization header', async () => {
    const reply = await send(`${url}/file-scans/x`, { method: 'GET', key: null, headers: { authorization: `Basic ${KEY_A}` } });
    expectError(reply, 401, 'unauthorized');
  });
});

describe('404 not_found', () => {
  it('for an unknown id and an unknown reference', async () => {
    expectError(await getScan(url, '00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expectError(await getByReference(url, 'never-used'), 404, 'not_found');
  });

  it("for another integration's scan, by id and by reference", async () => {
    const reference = ref('mine');
    const mine = terminalScanSchema.parse((await submit(url, { mode: 'sync', key: KEY_A, attributes: { file_name: 'a', external_reference_id: reference } })).body);
    expectError(await getScan(url, mine.id, { key: KEY_B }), 404, 'not_found');
    expectError(await getByReference(url, reference, { key: KEY_B }), 404, 'not_found');
    expect((await getScan(url, mine.id, { key: KEY_A })).status).toBe(200);
  });

  it('for unknown paths, with any method', async () => {
    expectError(await send(`${url}/nope`, { method: 'GET' }), 404, 'not_found');
    expectError(await send(`${url}/nope`, { method: 'TRACE' }), 404, 'not_found');
    expectError(await send(`${url}/file-scans/a/b`, { method: 'POST' }), 404, 'not_found');
    expectError(await send(`${url}/file-scans/external-reference/`, { method: 'GET' }), 404, 'not_found');
  });
});

describe('405 method_not_allowed', () => {
  it.each([
    ['TRACE', '/file-scans', 'POST'],
    ['GET', '/file-scans', 'POST'],
    ['PUT', '/file-scans/sync', 'POST'],
    ['GET', '/file-scans/sync', 'POST'],
    ['DELETE', '/file-scans/some-id', 'GET'],
    ['POST', '/file-scans/some-id', 'GET'],
    ['OPTIONS', '/file-scans/external-reference/a%2Fb', 'GET'],
    ['PATCH', '/file-scans/external-reference/a/b', 'GET'],
  ])('%s %s: 405 with Allow: %s, in the caller’s language', async (method, path, allow) => {
    const en = await send(`${url}${path}`, { method });
    expect(expectError(en, 405, 'method_not_allowed')).toContain(method);
    expect(en.headers.allow).toBe(allow);
    const de = await send(`${url}${path}`, { method, language: 'de' });
    expect(expectError(de, 405, 'method_not_allowed')).toMatch(/nicht erlaubt/);
    expect(de.headers['content-language']).toBe('de');
  });

  it('comes after authentication, as every route does', async () => {
    expectError(await send(`${url}/file-scans`, { method: 'TRACE', key: null }), 401, 'unauthorized');
  });
});

describe('408 sync_scan_timeout', () => {
  it('answers 408 with file_scan_id; the scan continues and completes', async () => {
    const slow = await startTestService({ scanDelayMs: 1500, syncWindowMs: 100 });
    try {
      const reference = ref('slow');
      const reply = await submit(slow.url, { mode: 'sync', attributes: { file_name: 'slow.txt', external_reference_id: reference } });
      expectError(reply, 408, 'sync_scan_timeout');
      const id = errorBodySchema.parse(reply.body).file_scan_id as string;
      expect(id).toMatch(UUID);
      const later = terminalScanSchema.parse((await waitForTerminal(slow.url, id)).body);
      expect(later).toMatchObject({ id, status: 'completed', execution_mode: 'sync', external_reference_id: reference });
      expect(later.scan_duration_ms).toBeGreaterThanOrEqual(1500);
    } finally {
      await slow.close();
    }
  });
});

describe('409 duplicate_external_reference_id', () => {
  it('is scoped per integration, across both modes', async () => {
    const reference = ref('dup');
    expect((await submit(url, { key: KEY_A, attributes: { file_name: 'a', external_reference_id: reference } })).status).toBe(202);
    expectError(await submit(url, { key: KEY_A, attributes: { file_name: 'a', external_reference_id: reference } }), 409, 'duplicate_external_reference_id');
    expectError(await submit(url, { key: KEY_A, mode: 'sync', attributes: { file_name: 'a', external_reference_id: reference } }), 409, 'duplicate_external_reference_id');
    // Another key is another integration: same reference, no conflict.
    const other = await submit(url, { key: KEY_B, mode: 'sync', attributes: { file_name: 'b', external_reference_id: reference } });
    expect(other.status).toBe(200);
    expect((await getByReference(url, reference, { key: KEY_B })).body.id).toBe(other.body.id);
    expect((await getByReference(url, reference, { key: KEY_A })).body.id).not.toBe(other.body.id);
  });

  it('lets only one of two concurrent submissions have the reference', async () => {
    const reference = ref('race');
    const replies = await Promise.all([1, 2, 3].map(() => submit(url, { attributes: { file_name: 'r', external_reference_id: reference } })));
    expect(replies.map((r) => r.status).sort()).toEqual([202, 409, 409]);
  });
});

describe('external_reference_id rules (400 invalid_request)', () => {
  it('accepts 255 characters and rejects 256, saying why', async () => {
    const ok = `${'a'.repeat(250)}${String(uniq++).padStart(5, '0')}`;
    expect(ok).toHaveLength(255);
    expect((await submit(url, { attributes: { file_name: 'a', external_reference_id: ok } })).status).toBe(202);
    const message = expectError(await submit(url, { attributes: { file_name: 'a', external_reference_id: 'b'.repeat(256) } }), 400, 'invalid_request');
    expect(message).toContain('256');
    expect(message).toContain('255');
  });

  it.each(['has space', 'semi;colon', 'ümlaut', 'quest?ion', 'per%cent', 'new\nline', 'tab\t', 'a+b', '', 'brace{'])('rejects %j', async (bad) => {
    const message = expectError(await submit(url, { attributes: { file_name: 'a', external_reference_id: bad } }), 400, 'invalid_request');
    expect(message).toContain('external_reference_id');
  });

  it('rejects a reference that is not a string', async () => {
    expectError(await submit(url, { attributes: { file_name: 'a', external_reference_id: 42 } }), 400, 'invalid_request');
  });
});

describe('Content-Language', () => {
  it('selects German or English messages, defaulting to English', async () => {
    const en = expectError(await getScan(url, 'missing', { language: 'en' }), 404, 'not_found');
    const de = expectError(await getScan(url, 'missing', { language: 'de' }), 404, 'not_found');
    const none = expectError(await getScan(url, 'missing'), 404, 'not_found');
    const deAt = expectError(await getScan(url, 'missing', { language: 'de-AT' }), 404, 'not_found');
    const fr = expectError(await getScan(url, 'missing', { language: 'fr' }), 404, 'not_found');
    expect(de).not.toBe(en);
    expect(none).toBe(en);
    expect(fr).toBe(en);
    expect(deAt).toBe(de);
    expect(de).toMatch(/Scan|Schlüssel/);
  });

  it('answers a language other than en or de in English, and says so in Content-Language', async () => {
    for (const language of ['fr', 'zh-Hant', '*', 'x']) {
      const reply = await getScan(url, 'missing', { language });
      expect(reply.body.message).toBe((await getScan(url, 'missing', { language: 'en' })).body.message);
      expect(reply.headers['content-language'], language).toBe('en');
    }
  });

  it('takes the first supported tag of a Content-Language list', async () => {
    const reply = await getScan(url, 'missing', { language: 'fr, de-CH' });
    expect(reply.headers['content-language']).toBe('de');
  });

  it('falls back to Accept-Language (by weight) when Content-Language names neither en nor de', async () => {
    const accept = (value: string, language?: string) => send(`${url}/file-scans/missing`, { method: 'GET', language, headers: { 'accept-language': value } });
    expect((await accept('de')).headers['content-language']).toBe('de');
    expect((await accept('fr, en;q=0.5, de;q=0.8')).headers['content-language']).toBe('de');
    expect((await accept('de;q=0, en')).headers['content-language']).toBe('en');
    expect((await accept('de', 'fr')).headers['content-language']).toBe('de');
    // The spec's header wins.
    expect((await accept('de', 'en')).headers['content-language']).toBe('en');
  });

  it('localizes every kind of error and says which language it used', async () => {
    const pairs: Array<[(language: string) => Promise<Reply>, number]> = [
      [(language) => submit(url, { key: null, language }), 401],
      [(language) => submit(url, { attributes: '{nope', language }), 400],
      [(language) => submit(url, { attributes: { external_reference_id: 'x y' }, language }), 400],
    ];
    for (const [call, status] of pairs) {
      const en = await call('en');
      const de = await call('de');
      expect(en.status).toBe(status);
      expect(de.status).toBe(status);
      expect(de.body.code).toBe(en.body.code);
      expect(de.body.message).not.toBe(en.body.message);
      expect(en.headers['content-language']).toBe('en');
      expect(de.headers['content-language']).toBe('de');
    }
  });
});

describe('failed scans', () => {
  it('carry error {code, message}, no result, and are never safe', async () => {
    const broken = await startTestService({ engine: new FailingEngine() });
    try {
      const reference = ref('fail');
      const reply = await submit(broken.url, { mode: 'sync', attributes: { file_name: 'x', external_reference_id: reference } });
      expect(reply.status).toBe(200);
      const scan = terminalScanSchema.parse(reply.body);
      expect(scan.status).toBe('failed');
      expect(scan).not.toHaveProperty('result');
      expect(scan).not.toHaveProperty('engine');
      expect(scan.error?.code).toBe('engine_unavailable');
      expect(scan.error?.message).toContain('ECONNREFUSED');
      expect(scan.completed_at).toMatch(ISO_MS);
      expect(JSON.stringify(reply.body)).not.toContain('"safe"');

      const german = await getByReference(broken.url, reference, { language: 'de' });
      const germanScan = terminalScanSchema.parse(german.body);
      expect(germanScan.error?.code).toBe('engine_unavailable');
      expect(germanScan.error?.message).not.toBe(scan.error?.message);

      const async = asyncSubmissionSchema.parse((await submit(broken.url, { attributes: { file_name: 'y' } })).body);
      const later = terminalScanSchema.parse((await waitForTerminal(broken.url, async.id)).body);
      expect(later.status).toBe('failed');
      expect(later.result).toBeUndefined();
    } finally {
      await broken.close();
    }
  });
});

describe('429 rate_limited', () => {
  it('answers with Retry-After once the bucket is empty, per integration', async () => {
    const limited = await startTestService({ rateLimit: { requestsPerSecond: 0.01, burst: 2 } });
    try {
      expect((await getScan(limited.url, 'x', { key: KEY_A })).status).toBe(404);
      expect((await getScan(limited.url, 'x', { key: KEY_A })).status).toBe(404);
      const reply = await getScan(limited.url, 'x', { key: KEY_A });
      expectError(reply, 429, 'rate_limited');
      expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The other integration has its own bucket.
      expect((await getScan(limited.url, 'x', { key: KEY_B })).status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
