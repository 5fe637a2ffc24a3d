// Keyboard-only steps for the e2e walks: what has focus, Tab until a control
// has it, and the list's own keys to open a scan.
import type { Page } from 'playwright-core';

/** What has keyboard focus: enough to name it in an assertion. */
export interface Focused {
  tag: string;
  id: string;
  testId: string | null;
  text: string;
  label: string | null;
}

export const focused = (page: Page): Promise<Focused> =>
  page.evaluate(`(() => {
    const element = document.activeElement;
    return { tag: element?.tagName.toLowerCase() ?? '', id: element?.id ?? '', testId: element?.getAttribute('data-testid') ?? null, text: element?.textContent?.trim() ?? '', label: element?.getAttribute('aria-label') ?? null };
  })()`);

/** Presses Tab until the focused element matches (at most `limit` times); fails otherwise. */
export async function tabTo(page: Page, what: string, matches: (element: Focused) => boolean, limit = 40): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (matches(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${what}; focus is on ${JSON.stringify(await focused(page))}`);
}

export const isButton = (text: string) => (element: Focused) => element.tag === 'button' && element.text === text;

/** Moves the list's cursor to the row of this file (the list has focus) and opens it with Enter. */
export async function openWithKeyboard(page: Page, fileName: string): Promise<void> {
  await page.keyboard.press('Home');
  for (let i = 0; i < 20; i++) {
    const active = await page.evaluate<string | null>(`document.getElementById(document.activeElement?.getAttribute('aria-activedescendant') ?? '')?.querySelector('.row__filename')?.textContent ?? null`);
    if (active === fileName) {
      await page.keyboard.press('Enter');
      await page.getByTestId('detail-panel').locator('#detail-title', { hasText: fileName }).waitFor();
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no row for ${fileName}`);
}
