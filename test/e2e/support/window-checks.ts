// What the window in real use must keep, measured from the DOM: the list keeps its
// share of the window, the window itself never scrolls and the top bar stays in view
// (issue 30); the contrast of a text as painted, its ancestors' backgrounds and
// opacity included; and the language a text is marked with.
import type { Locator, Page } from 'playwright-core';

/** The list's least height (app.css --list-min): a third of the window, or ten 44-px rows and its header, whichever is smaller. */
export const LIST_HEADER_PX = 64;
export const ROW_PX = 44;
export const listMinimum = (windowHeight: number): number => Math.min(windowHeight / 3, 10 * ROW_PX + LIST_HEADER_PX);

export interface WindowLayout {
  width: number;
  height: number;
  /** How far the document is scrolled, and how much taller than the window it is. */
  scrolledBy: number;
  overflowBy: number;
  topbar: { top: number; bottom: number };
  list: { top: number; bottom: number; height: number };
  /** The empty list's sentence, when shown: whether all of it is inside the list. */
  emptySentenceInside: boolean | null;
  /** Parts that scroll within themselves and can (their content is taller than they are). */
  scrollingParts: string[];
}

export const layoutOf = (page: Page): Promise<WindowLayout> =>
  page.evaluate(`(() => {
    const root = document.scrollingElement;
    const box = (selector) => { const r = document.querySelector(selector)?.getBoundingClientRect(); return r ? { top: r.top, bottom: r.bottom, height: r.height } : { top: NaN, bottom: NaN, height: 0 }; };
    const list = box('.list');
    const empty = document.querySelector('.list__empty')?.getBoundingClientRect();
    const scroller = document.querySelector('.list__scroller')?.getBoundingClientRect();
    const scrollingParts = ['.scans__top', '.job__details:not([hidden])', '.detail', '.list__scroller']
      .filter((selector) => [...document.querySelectorAll(selector)].some((element) => element.scrollHeight > element.clientHeight + 1));
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      scrolledBy: window.scrollY + root.scrollTop,
      overflowBy: root.scrollHeight - root.clientHeight,
      topbar: box('.topbar'),
      list,
      emptySentenceInside: empty && scroller ? empty.top >= scroller.top - 1 && empty.bottom <= scroller.bottom + 1 : null,
      scrollingParts,
    };
  })()`);

/** What is wrong with the layout, in words (empty when nothing is). */
export function layoutProblems(layout: WindowLayout): string[] {
  const problems: string[] = [];
  if (layout.scrolledBy !== 0) problems.push(`the window is scrolled by ${layout.scrolledBy} px`);
  if (layout.overflowBy > 0) problems.push(`the page is ${layout.overflowBy} px taller than the window`);
  if (layout.topbar.top !== 0) problems.push(`the top bar starts at ${layout.topbar.top} px`);
  const least = listMinimum(layout.height);
  if (layout.list.height + 0.5 < least) problems.push(`the list is ${layout.list.height} px high, under ${least.toFixed(1)} px`);
  if (layout.list.bottom > layout.height + 0.5) problems.push(`the list ends at ${layout.list.bottom} px, below the window (${layout.height} px)`);
  if (layout.emptySentenceInside === false) problems.push('the empty list’s sentence is cut');
  return problems;
}

/** [r, g, b, a] of a CSS colour as getComputedStyle gives it (rgb() or rgba()). */
type Rgba = [number, number, number, number];

/**
 * The WCAG contrast ratio of the element's text as painted: its colour and the nearest
 * background behind it, each faded by the opacity of the element and its ancestors over
 * what lies behind them.
 */
export async function paintedContrast(target: Locator): Promise<number> {
  const layers = await target.first().evaluate((element) => {
    // Runs in the page (this file is typechecked without the DOM lib).
    const view = globalThis as unknown as { getComputedStyle(target: unknown): { color: string; backgroundColor: string; opacity: string } };
    const found: Array<{ color: string; background: string; opacity: string }> = [];
    for (let node = element as { parentElement: unknown } | null; node; node = node.parentElement as typeof node) {
      const style = view.getComputedStyle(node);
      found.push({ color: style.color, background: style.backgroundColor, opacity: style.opacity });
    }
    return found;
  });
  const rgba = (css: string): Rgba => {
    const [r = 0, g = 0, b = 0, a = 1] = (css.match(/[\d.]+/g) ?? []).map(Number);
    return [r, g, b, css.startsWith('rgba') ? a : 1];
  };
  const over = (top: Rgba, below: Rgba, alpha: number): Rgba => [0, 1, 2].map((i) => top[i]! * alpha + below[i]! * (1 - alpha)).concat(1) as Rgba;
  // Behind everything, the page's canvas: white (or the root's own background, painted below).
  let behind: Rgba = [255, 255, 255, 1];
  let background: Rgba = behind;
  let fade = 1;
  for (const layer of [...layers].reverse()) {
    const own = rgba(layer.background);
    const opacity = Number(layer.opacity);
    // An ancestor at reduced opacity: its whole content shows over what was behind it.
    if (opacity < 1) {
      behind = background;
      fade *= opacity;
    }
    if (own[3] > 0) background = over(own, background, own[3]);
  }
  const text = rgba(layers[0]!.color);
  const textPainted = over(over(text, background, text[3]), behind, fade);
  const backgroundPainted = over(background, behind, fade);
  return contrastRatio(textPainted, backgroundPainted);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const luminance = ([r, g, b2]: Rgba): number => {
    const [lr, lg, lb] = [r, g, b2].map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  const [lighter, darker] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** The language an element's text is read in: its own lang or its nearest ancestor's. */
export const languageOf = (target: Locator): Promise<string | null> =>
  target.first().evaluate((element) => (element as { closest(selector: string): { getAttribute(name: string): string | null } | null }).closest('[lang]')?.getAttribute('lang') ?? null);
