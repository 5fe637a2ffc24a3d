// The virusTotal channels over IPC: a lookup reaches the core only with a SHA-256, a key only
// as text of bounded length; whatever else the window sends (generated here) is refused
// before the core sees it, and the refusal never echoes the input (it may be a key).
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appOrigins } from '../../../electron/shell/app-origin.ts';
import { createFileHandlers } from '../../../electron/shell/files.ts';
import { registerIpcHandlers } from '../../../electron/shell/ipc.ts';
import { FakeWebContents, ipcMain, resetFakeElectron } from '../shell/fake-electron.ts';
import { captureLog, type LogCapture } from '../shell/log-capture.ts';
import { createTestCore, type TestCore } from '../shell/test-core.ts';

vi.mock('electron', () => import('../shell/fake-electron.ts'));

let capture: LogCapture;
let core: TestCore;
let window: FakeWebContents;

beforeEach(() => {
  resetFakeElectron();
  capture = captureLog();
  core = createTestCore();
  window = new FakeWebContents();
  registerIpcHandlers({ core, files: createFileHandlers(() => null), trustedWebContents: () => window as never, origins: appOrigins(null), log: capture.log });
});
afterEach(() => capture.cleanup());

function invoke(channel: string, ...args: unknown[]): Promise<unknown> {
  const handler = ipcMain.handlers.get(channel);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(handler({ sender: window, senderFrame: { url: 'verdict://app/index.html', parent: null } }, ...args));
}

const vtCalls = () => core.calls.filter((call) => call.method.startsWith('virusTotal.'));
const SHA = 'A'.repeat(32) + 'b'.repeat(32);

describe('virusTotal channels', () => {
  it('forward a SHA-256 and a key to the core', async () => {
    await expect(invoke('virusTotal:lookup', SHA)).resolves.toEqual({ ok: true, value: { kind: 'unknown' } });
    await expect(invoke('virusTotal:setKey', 'k'.repeat(64))).resolves.toMatchObject({ ok: true, value: { isSet: true } });
    await expect(invoke('virusTotal:keyStatus')).resolves.toMatchObject({ ok: true });
    await expect(invoke('virusTotal:clearKey')).resolves.toMatchObject({ ok: true, value: { isSet: false } });
    expect(vtCalls()).toEqual([
      { method: 'virusTotal.lookup', args: [SHA] },
      { method: 'virusTotal.setKey', args: ['k'.repeat(64)] },
    ]);
  });

  it('refuse anything else before the core sees it, without echoing it', async () => {
    const notSha = fc.oneof(fc.string({ maxLength: 80 }).filter((s) => !/^[0-9a-fA-F]{64}$/.test(s)), fc.anything());
    await fc.assert(
      fc.asyncProperty(notSha, async (input) => {
        const result = (await invoke('virusTotal:lookup', input)) as { ok: boolean; error?: { code: string; message: string } };
        expect(result).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
        if (typeof input === 'string' && input.length >= 8) expect(result.error?.message).not.toContain(input);
      }),
      { numRuns: 200 },
    );
    const canary = `sk_LEAKCANARY_${'x'.repeat(4100)}`;
    const tooLong = (await invoke('virusTotal:setKey', canary)) as { ok: boolean; error: { message: string } };
    expect(tooLong.ok).toBe(false);
    expect(tooLong.error.message).not.toContain('LEAKCANARY');
    await expect(invoke('virusTotal:setKey', 42)).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    await expect(invoke('virusTotal:keyStatus', 'extra')).resolves.toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(vtCalls()).toEqual([]);
    expect(capture.lines().map((line) => JSON.stringify(line)).join('\n')).not.toContain('LEAKCANARY');
  });
});
