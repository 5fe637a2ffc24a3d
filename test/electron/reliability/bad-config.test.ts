// Bad configuration through the core (issue 7): remote base URLs that are not
// http(s), carry credentials or lead to a server answering HTML; API keys with
// whitespace, control or non-ASCII characters; a settings file that is corrupt
// or from a newer version. Each is refused or reported with a clear message
// (never quoting a key or password), the core keeps working, and nothing crashes.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../../../electron/core/create-core.ts';
import { tempDir } from '../scans/harness.ts';
import { isTerminal, records, until, waitForBatch } from './pipeline-kit.ts';

let dir: Awaited<ReturnType<typeof tempDir>>;
let htmlServer: Server;
let htmlUrl: string;

beforeAll(async () => {
  dir = await tempDir('verdict-reliability-config-');
  htmlServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Router login</title><form>password: <input></form>');
  });
  await new Promise<void>((resolve) => htmlServer.listen(0, '127.0.0.1', resolve));
  htmlUrl = `http://127.0.0.1:${(htmlServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => htmlServer?.close(resolve));
  await dir?.remove();
});

const tuning = { watch: false, poll: { initialDelayMs: 50, maxDelayMs: 300 }, retryBaseMs: 50, retryMaxMs: 300, clientRetry: { baseDelayMs: 20, maxDelayMs: 100, deadlineMs: 5_000 } } as const;

describe('remote base URLs', () => {
  it.each([
    ['not http(s)', 'ftp://scan.example.com'],
    ['a file URL', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['with credentials', 'https://admin:pw_LEAKCANARY_1234@scan.example.com'],
    ['with a user name only', 'https://admin@scan.example.com'],
    ['not a URL', 'scan.example.com'],
    ['empty', ''],
  ])('%s: refused with invalid_settings, the message says why and never quotes a password', async (_label, baseUrl) => {
    const core = await createCore({ dataDir: join(dir.path, `urls-${_label.replace(/\W+/g, '-')}`), keychainService: `verdict-reliability-config-${process.pid}` }, tuning);
    try {
      const result = await core.settings.update({ backend: { kind: 'remote', baseUrl } });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('invalid_settings');
      expect(result.error.message).toMatch(/http|URL|credentials/i);
      expect(result.error.message).not.toContain('pw_LEAKCANARY_1234');
      // Still on the embedded service, still working.
      expect(await core.settings.get()).toMatchObject({ ok: true, value: { backend: { kind: 'local' } } });
    } finally {
      await core.close();
    }
  });

  it('a server that answers HTML, no key yet: files wait for a key (stated); back to local, they are scanned', async () => {
    const dataDir = join(dir.path, 'html');
    const core = await createCore({ dataDir, keychainService: `verdict-reliability-config-${process.pid}` }, tuning);
    try {
      await mkdir(join(dir.path, 'html-files'));
      const file = join(dir.path, 'html-files', 'a.txt');
      await writeFile(file, 'a\n');
      expect((await core.settings.update({ backend: { kind: 'remote', baseUrl: htmlUrl }, confirmRemoteUploads: false })).ok).toBe(true);
      // The backend is rebuilt in the background after the change; until then the answer is "starting".
      let report = await core.settings.testConnection();
      await until(async () => {
        report = await core.settings.testConnection();
        return !(report.ok && /starting/i.test(report.value.message));
      }, 'the new backend to be in place');
      // No key is stored for this service yet: that is what the test connection says.
      expect(report).toMatchObject({ ok: true, value: { authorized: false, message: expect.stringMatching(/API key/) } });
      const submitted = await core.submit([file], { origin: 'cli' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      // No key is stored for this service, so the file waits for one (stated), or the HTML answer is named.
      const [row] = await waitForBatch(core, submitted.value.ids, (r) => isTerminal(r) || r.pendingReason !== null, 30_000);
      expect(row?.status).not.toBe('completed');
      console.log(`HTML server, no key: ${row?.status} / ${row?.pendingReason} / ${JSON.stringify(row?.error)}`);

      // Back to the embedded service: the waiting file is scanned there.
      expect((await core.settings.update({ backend: { kind: 'local' } })).ok).toBe(true);
      const [done] = await waitForBatch(core, submitted.value.ids, isTerminal, 30_000);
      expect(done).toMatchObject({ status: 'completed', safe: true, backend: 'local' });
    } finally {
      await core.close();
    }
  });

  it('a server that answers HTML, with a key: test connection and the scan name the HTML answer; nothing crashes', async () => {
    const dataDir = join(dir.path, 'html-key');
    const core = await createCore({ dataDir, serviceOverride: { baseUrl: htmlUrl, apiKey: 'some-key-0123456789' } }, tuning);
    try {
      const file = join(dir.path, 'html-files', 'b.txt');
      await writeFile(file, 'b\n');
      const report = await core.settings.testConnection();
      console.log(`test connection against an HTML server: ${JSON.stringify(report)}`);
      expect(report).toMatchObject({ ok: true, value: { authorized: false } });
      if (report.ok) expect(report.value.message).toMatch(/JSON|HTML|not a File Scanning Service|not understood/i);
      const submitted = await core.submit([file], { origin: 'cli' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      await until(async () => (await records(core, submitted.value.ids)).every((r) => isTerminal(r) || r.error !== null), 'an error on the record', 30_000);
      const [row] = await records(core, submitted.value.ids);
      expect(row?.status).not.toBe('completed');
      expect(row?.error?.code).toBe('malformed_response');
      expect(row?.error?.message).toMatch(/not JSON \(text\/html\)/);
    } finally {
      await core.close();
    }
  });
});

describe('API keys that cannot go into a header', () => {
  it.each([
    ['a space inside', 'abcd efgh-0123456789', /space|whitespace/i],
    ['a tab inside', 'abcd\tefgh-0123456789', /space|whitespace/i],
    ['a newline inside', 'abcd\nefgh-0123456789', /whitespace|control/i],
    ['a control character', 'abcd\u0007efgh-0123456789', /control/i],
    ['non-ASCII', 'schlüssel-0123456789', /non-ASCII/i],
    ['an emoji', 'key-🔑-0123456789', /non-ASCII/i],
    ['only spaces', '      ', /empty|no key|missing/i],
  ])('%s: invalid_api_key, saying what is wrong, without the key', async (_label, key, says) => {
    const core = await createCore({ dataDir: join(dir.path, 'keys'), keychainService: `verdict-reliability-config-${process.pid}` }, tuning);
    try {
      const result = await core.settings.setApiKey(key);
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('invalid_api_key');
      expect(result.error.message).toMatch(says);
      if (key.trim().length > 0) expect(result.error.message).not.toContain(key.trim().slice(0, 6));
    } finally {
      await core.close();
    }
  });
});

describe('a settings file that is corrupt or from a newer version', () => {
  it.each([
    ['not JSON', '{"language": "de", '],
    ['JSON of the wrong shape', JSON.stringify({ version: 1, language: 42, backend: 'yes' })],
    ['empty', ''],
    ['binary', '\u0000\u0001\u0002\u00ff'],
  ])('%s: the core starts with defaults, sets the file aside and says so in its log; saving works again', async (label, content) => {
    const dataDir = join(dir.path, `settings-${label.replace(/\W+/g, '-')}`);
    await mkdir(dataDir);
    await writeFile(join(dataDir, 'settings.json'), content);
    const core = await createCore({ dataDir }, tuning);
    try {
      expect(await core.settings.get()).toMatchObject({ ok: true, value: { language: 'system', backend: { kind: 'local' } } });
      expect((await core.settings.update({ language: 'de' })).ok).toBe(true);
      const file = join(dataDir, 'ok.txt');
      await writeFile(file, 'ok\n');
      const submitted = await core.submit([file], { origin: 'cli' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      expect((await waitForBatch(core, submitted.value.ids))[0]).toMatchObject({ status: 'completed' });
    } finally {
      await core.close();
    }
    expect((await readdir(dataDir)).filter((name) => name.startsWith('settings.json.corrupt-'))).toHaveLength(1);
    expect(await readFile(join(dataDir, 'logs', 'core.log'), 'utf8')).toMatch(/settings file was damaged/);
    expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({ language: 'de' });
  });

  it('from a newer version: used read-only, changes refused with a clear message, the file never touched', async () => {
    const dataDir = join(dir.path, 'settings-future');
    await mkdir(dataDir);
    const content = JSON.stringify({ version: 999, language: 'de', mode: 'sync', holographicMode: true });
    await writeFile(join(dataDir, 'settings.json'), content);
    const core = await createCore({ dataDir }, tuning);
    try {
      expect(await core.settings.get()).toMatchObject({ ok: true, value: { language: 'de', mode: 'sync' } });
      const refused = await core.settings.update({ language: 'en' });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('settings_read_only');
        expect(refused.error.message).toMatch(/newer version/i);
      }
      const file = join(dataDir, 'ok.txt');
      await writeFile(file, 'ok\n');
      const submitted = await core.submit([file], { origin: 'cli' });
      if (!submitted.ok) throw new Error(submitted.error.message);
      expect((await waitForBatch(core, submitted.value.ids))[0]).toMatchObject({ status: 'completed', mode: 'sync' });
    } finally {
      await core.close();
    }
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(content);
    expect(await readFile(join(dataDir, 'logs', 'core.log'), 'utf8')).toMatch(/newer version of Verdict/);
  });
});
