import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, createSecretList, REDACTED, rotateIfLarge, sanitizeForLog, scrubText } from '../../../electron/logging/logger.ts';

const KEY = 'vk_live_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-logger-'));
  file = path.join(dir, 'logs', 'main.log');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = () => fs.readFileSync(file, 'utf8');

describe('createLogger', () => {
  it('on a full disk (/dev/full) drops its lines: the process neither throws nor hangs at exit', () => {
    // A child, since the hang was at process exit: sonic-boom's exit flush retried ENOSPC forever.
    const logger = JSON.stringify(new URL('../../../electron/logging/logger.ts', import.meta.url).pathname);
    const body = `import { createLogger } from ${logger};
      const log = createLogger({ file: '/dev/full' });
      for (let i = 0; i < 5000; i++) log.info({ i }, 'a line that cannot be written');
      log.flush();
      process.stdout.write('logged');
      process.exit(3);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8', timeout: 30_000 });
    expect({ stdout: child.stdout, status: child.status, signal: child.signal, stderr: child.stderr }).toEqual({ stdout: 'logged', status: 3, signal: null, stderr: '' });
  });

  it('writes JSON lines to the file, creating its folder', () => {
    const log = createLogger({ file });
    log.info({ scanId: 's1' }, 'scan queued');
    const line = JSON.parse(read().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'scan queued', scanId: 's1', level: 30 });
  });

  it('never writes an API key given as a field, at any depth, or as a header', () => {
    const log = createLogger({ file });
    log.info({ apiKey: KEY }, 'top level');
    log.info({ settings: { backend: { remote: { credentials: { apiKey: KEY, API_KEY: KEY } } } } }, 'deep');
    log.info({ request: { headers: { Authorization: `Bearer ${KEY}`, 'X-Api-Key': KEY } } }, 'headers');
    log.child({ apiKey: KEY }).info('child bindings');
    log.info({ list: [{ token: KEY }, { password: KEY }] }, 'arrays');
    const text = read();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('3f9a8b7c');
    expect(text.split('\n').filter(Boolean)).toHaveLength(5);
    expect(text).toContain(REDACTED);
  });

  it('scrubs bearer credentials and registered secrets from messages and errors', () => {
    const secrets = createSecretList();
    secrets.add(KEY);
    const log = createLogger({ file, secrets });
    log.warn(`request failed with header Bearer ${KEY}`);
    log.error(new Error(`401 for key ${KEY}`), 'upload failed');
    log.error({ err: new Error('wrapped', { cause: new Error(`inner ${KEY}`) }) }, 'nested cause');
    log.info({ note: `the key is ${KEY} (oops)` }, 'in a field');
    const text = read();
    expect(text).not.toContain(KEY);
    const lines = text.trim().split('\n').map((line) => JSON.parse(line) as { err: { message: string; stack: string } });
    expect(lines[1]!.err.message).toBe(`401 for key ${REDACTED}`);
    expect(lines[1]!.err.stack).toContain('Error: 401 for key');
  });

  it('rotates a large file at start', () => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x'.repeat(2000));
    createLogger({ file, maxBytes: 1000 }).info('fresh');
    expect(fs.readFileSync(`${file}.1`, 'utf8')).toHaveLength(2000);
    expect(read()).toContain('fresh');
  });

  it('writes the file for the user only', () => {
    createLogger({ file }).info('x');
    if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o077).toBe(0);
  });
});

describe('sanitizeForLog', () => {
  it('keeps ordinary data, survives cycles and bounds depth', () => {
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(sanitizeForLog(cyclic)).toEqual({ name: 'a', self: '[circular]' });
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 20; i++) deep = deep.next = {};
    expect(JSON.stringify(sanitizeForLog(root))).toContain('[too deep]');
    expect(sanitizeForLog(Buffer.from('secret bytes'))).toBe('[12 bytes]');
  });

  it('ignores very short secrets that would blank ordinary words', () => {
    const secrets = createSecretList();
    secrets.add('abc');
    expect(scrubText('abc def', secrets)).toBe('abc def');
  });
});

describe('rotateIfLarge', () => {
  it('does nothing for a missing or small file', () => {
    expect(() => rotateIfLarge(path.join(dir, 'none.log'), 10)).not.toThrow();
    fs.writeFileSync(path.join(dir, 'small.log'), 'x');
    rotateIfLarge(path.join(dir, 'small.log'), 10);
    expect(fs.existsSync(path.join(dir, 'small.log.1'))).toBe(false);
  });
});
