// Entry point of the renderer bundle. The app starts in steps, each in a task of
// its own, so that no single task holds the window for long (benchmark case 10:
// no task over 50 ms while loading). First zod, configured before any schema
// exists. Then the shared modules one by one: they build their zod schemas as
// they load. Then React, then the app's code and start-app.tsx (Intl data, boot,
// the first render).
import './app/zod-without-eval.ts';
import { nextTask } from './app/next-task.ts';

async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  for (const load of [
    () => import('../shared/service-contract/scan.ts'),
    () => import('../shared/scans/record.ts'),
    () => import('../shared/settings/protection.ts'),
    () => import('../shared/settings/settings.ts'),
    () => import('react-dom/client'),
  ]) {
    await load();
    await nextTask();
  }
  const { startApp } = await import('./app/start-app.tsx');
  await nextTask();
  await startApp(root);
}

void start();
