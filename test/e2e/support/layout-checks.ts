// What a narrow or zoomed window must not do: scroll sideways, push a control
// or a heading out of the window, or cut a row's verdict or status short.
import type { Page } from 'playwright-core';

/** Horizontal overflow in the page: the document's, and every element that scrolls sideways or pushes content past the window. */
export const overflowsOf = (page: Page): Promise<string[]> =>
  page.evaluate(`(() => {
    const found = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push('document: ' + root.scrollWidth + ' > ' + root.clientWidth);
    for (const element of document.querySelectorAll('body *')) {
      const style = getComputedStyle(element);
      if (['auto', 'scroll'].includes(style.overflowX) && element.scrollWidth > element.clientWidth + 1) found.push('scrolls sideways: ' + element.className + ' ' + element.scrollWidth + ' > ' + element.clientWidth);
      const box = element.getBoundingClientRect();
      const shown = box.width > 0 && box.height > 0 && style.visibility !== 'hidden' && !element.closest('[inert], dialog:not([open])');
      if (shown && element.matches('button, input, select, textarea, .badge, .row__filename, h1, h2, h3') && (box.right > root.clientWidth + 1 || box.left < -1)) found.push('outside the window: ' + element.tagName + '.' + element.className + ' ' + (element.textContent ?? '').slice(0, 30));
      // A verdict or status cut short (an ellipsis, or lines past its box) is content lost.
      if (shown && element.matches('.badge__text, .row .status') && (element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1)) found.push('cut short: ' + element.className + ' ' + element.textContent);
    }
    return found;
  })()`);
