// The `npm run lint:electron` gate itself: it must fail on a finding, fail on a
// suppression without a reason, and pass clean or properly explained code.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.join(import.meta.dirname, '../../security/run-electronegativity.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function gate(source: string): Promise<{ code: number; output: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-gate-'));
  dirs.push(root);
  fs.mkdirSync(path.join(root, 'electron'));
  fs.writeFileSync(path.join(root, 'electron', 'main.ts'), source);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, root]);
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const HARDENED = `import { app, BrowserWindow, session } from 'electron';
app.on('web-contents-created', (_e, contents) => {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});
session.defaultSession.setPermissionRequestHandler((_wc, _p, callback) => callback(false));
session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
  callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': ["default-src 'none'"] } });
});
`;

describe('the electronegativity gate', () => {
  it('fails on an unsafe window and names the check', async () => {
    const result = await gate(`${HARDENED}new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n`);
    expect(result.code).toBe(1);
    expect(result.output).toContain('SANDBOX_JS_CHECK');
    expect(result.output).toContain('CONTEXT_ISOLATION_JS_CHECK');
  });

  it('fails on a suppression that does not say why', async () => {
    const result = await gate(`${HARDENED}void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK\n`);
    expect(result.code).toBe(1);
    expect(result.output).toContain('eng-disable without a reason');
  });

  it('passes hardened code and explained suppressions', async () => {
    const result = await gate(
      `${HARDENED}import { shell } from 'electron';\nconst url = 'https://example.com';\nvoid shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK -- a constant https URL, not user input\n`,
    );
    expect(result.output).toContain('no findings');
    expect(result.code).toBe(0);
  });
});
