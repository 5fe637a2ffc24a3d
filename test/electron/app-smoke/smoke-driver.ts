// The app smoke test's scenario, run in its own Node 24 process with the electron stand-in
// (`node --import ./electron-hook.ts smoke-driver.ts`, no arguments: it is launched like the app
// with no files): starts the BUILT main process,
// drops a file on the window, waits for its verdict, looks at the tray and the
// notifications, opens Settings, and quits from the tray menu. The stand-in prints what
// was found (SMOKE_REPORT …) when the app exits.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { control } from './electron-stand-in.ts';

const appDir = process.env.STAND_IN_APP!;
const dropped = process.env.SMOKE_DROP!;
const report = control.report;
const workers: number[] = [];
process.on('worker', (worker) => workers.push(worker.threadId));

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function scenario(): Promise<void> {
  const started = Date.now();
  await import(pathToFileURL(path.join(appDir, 'dist-electron/main.js')).href);
  const page = await (await until('the window', () => control.windowLoaded));
  await page.getByTestId('dropzone').waitFor({ timeout: 60_000 });
  report.startedMs = Date.now() - started;

  // Drag and drop: the page's pathFor answers for the dropped File as webUtils would.
  const name = path.basename(dropped);
  await page.evaluate(([file, full]) => ((globalThis as unknown as { __standInPaths: Record<string, string> }).__standInPaths[file!] = full!), [name, dropped]);
  // Runs in the page (a string: this file is typechecked without the DOM lib).
  const transfer = await page.evaluateHandle(`(() => {
    const data = new DataTransfer();
    data.items.add(new File(['dropped'], ${JSON.stringify(name)}, { type: 'application/octet-stream' }));
    return data;
  })()`);
  const zone = page.getByTestId('dropzone');
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
  const row = page.locator('.row[data-scan-id]', { has: page.locator('.row__filename', { hasText: name }) }).and(page.locator('[data-verdict=unsafe]'));
  await row.waitFor({ timeout: 60_000 });
  report.verdict = await row.getAttribute('data-verdict');

  const tray = await until('a tray icon', () => control.trays[0]);
  await until('the threat icon in the tray', () => tray.image.path.endsWith('tray-threat.png'));
  report.tray = { icon: path.basename(tray.image.path), tooltip: tray.tooltip };
  await until('a notification', () => control.notifications.length > 0);
  report.notifications = control.notifications.map((notice) => notice.title);

  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByTestId('settings-view').waitFor();
  report.settings = { startAtLogin: await page.getByTestId('start-at-login').isChecked() };
  report.workerThreads = workers.length;

  // Quit as a user does, from the tray menu: the stand-in prints the report when the process ends.
  report.quitting = true;
  const quit = tray.menu?.items.find((item) => item.label === 'Quit Verdict');
  if (!quit?.click) throw new Error('no Quit item in the tray menu');
  quit.click();
}

scenario().catch((error: unknown) => {
  report.failure = error instanceof Error ? error.stack : String(error);
  control.problems.push(`driver: ${String(error)}`);
  void import('./electron-stand-in.ts').then(({ app }) => app.exit(3));
});
