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

/** Runs the gate over a folder holding `electron/main.ts` with `source`, plus any `files` (relative path → text). */
async function gate(source: string, files: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'verdict-gate-'));
  dirs.push(root);
  for (const [file, text] of Object.entries({ 'electron/main.ts': source, ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
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

  describe("a page's CSP meta tag (renderer/index.html)", () => {
    const page = (policy: string) => ({
      'renderer/index.html': `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${policy}"></head><body><script type="module" src="./main.tsx"></script></body></html>\n`,
    });
    const STRICT = "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'";

    it("accepts the evaluator's note when script-src 'self' is the policy's only weakness, and says so", async () => {
      const result = await gate(HARDENED, page(STRICT));
      expect(result.output).toContain("CSP note(s) on script-src 'self' accepted");
      expect(result.code).toBe(0);
    });

    it("fails on any other CSP weakness in the page, such as 'unsafe-inline' scripts", async () => {
      const result = await gate(HARDENED, page(STRICT.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")));
      expect(result.output).toContain('CSP_GLOBAL_CHECK');
      expect(result.code).toBe(1);
    });
  });
});
