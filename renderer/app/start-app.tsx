// The app's last start-up steps (see main.tsx): boot (subscriptions and the first
// requests, answered while the next steps run), the Intl formatters the first
// screen uses, the focus guard, then the first render.
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { selectLocale } from '../store/settings-slice.ts';
import { verdictStore } from '../store/store.ts';
import { App } from './App.tsx';
import { boot } from './boot.ts';
import { installFocusGuard } from './focus-guard.ts';
import { nextTask } from './next-task.ts';
import { intlWarmUps } from './warm-intl.ts';

export async function startApp(root: HTMLElement): Promise<void> {
  const feed = await boot();
  for (const warmUp of intlWarmUps(selectLocale(verdictStore.getState()))) {
    await nextTask();
    warmUp();
  }
  await nextTask();
  installFocusGuard(document);
  // A transition: React renders in slices of a few milliseconds instead of one task.
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App feed={feed} />
      </StrictMode>,
    ),
  );
}
