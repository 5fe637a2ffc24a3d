// The window's one focus rule: after any change, keyboard focus stays where the
// user's attention is. When the focused control goes (removed, disabled, hidden,
// moved by a re-render), focus moves to, in this order:
//  1. the same control, if it is still or again in the page (moved, re-rendered);
//  2. its nearest replacement: the control that took its place in the smallest
//     part of the page around it that is still there and still has a control
//     (a control like it, e.g. the next row's "Remove", comes first);
//  3. a group around it that is left with text but no control (a status line
//     whose button went, a quarantine action that is done): the group takes
//     focus itself and hands it on to the first control that appears in it.
// Groups are focus scopes ([data-focus-scope]), live regions, list items and
// landmarks. Every action gets this from the guard; no component moves focus
// by itself, except dialogs and the detail panel, which give it back to their opener.

const GROUP = '[data-focus-scope], [role=status], [role=alert], [role=group], [role=region], [role=dialog], li, section, aside, form, fieldset, dialog, main';
const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';

/** One container around the focused control, and the control's position among the container's controls then. */
interface Around {
  container: Element;
  index: number;
}

/** Where a control was: itself, what made it itself (to know it again), and each container around it, nearest first. */
export interface FocusPlace {
  element: Element;
  identity: string;
  around: Around[];
}

const usable = (element: Element): element is HTMLElement =>
  element instanceof HTMLElement && !element.matches(':disabled') && element.closest('[inert]') === null && element.getClientRects().length > 0;

/** Gone without asking for a layout (the guard runs after every change, 1,000 a second at times). */
const plainlyGone = (element: Element): boolean => !element.isConnected || element.matches(':disabled') || element.closest('[hidden], [inert]') !== null;

const controlsIn = (container: Element): HTMLElement[] => [...container.querySelectorAll(FOCUSABLE)].filter(usable);

/** What makes a control the same one after a re-render: its id, or its kind, name and text. */
function identityOf(element: Element): string {
  if (element.id) return `#${element.id}`;
  const text = (element.textContent ?? '').trim().slice(0, 80);
  return [element.tagName, element.getAttribute('role'), element.getAttribute('aria-label'), element.getAttribute('data-testid'), text].join('|');
}

/** Records where `element` is, so that focus can find its way back after it goes. */
export function placeOf(element: Element): FocusPlace {
  const around: Around[] = [];
  for (let container = element.parentElement; container !== null; container = container.parentElement) {
    around.push({ container, index: Math.max(0, controlsIn(container).indexOf(element as HTMLElement)) });
    if (container === element.ownerDocument.body) break;
  }
  return { element, identity: identityOf(element), around };
}

/** The control among `controls` nearest to `index`, one like the lost control first. */
function nearest(controls: HTMLElement[], index: number, identity: string): HTMLElement | undefined {
  const alike = controls.map((control, at) => ({ control, at })).filter(({ control }) => identityOf(control) === identity);
  if (alike.length > 0) return alike.reduce((best, next) => (Math.abs(next.at - index) < Math.abs(best.at - index) ? next : best)).control;
  return controls[Math.min(index, controls.length - 1)];
}

/** A group that keeps focus itself until it has a control to give it to. */
let holding: { group: HTMLElement; index: number; identity: string; addedTabIndex: boolean } | null = null;

function hold(group: HTMLElement, index: number, identity: string): void {
  const addedTabIndex = !group.hasAttribute('tabindex');
  // Focusable by script only, not by Tab; taken away again when focus leaves it.
  if (addedTabIndex) group.setAttribute('tabindex', '-1');
  holding = { group, index, identity, addedTabIndex };
  group.focus();
}

function release(): void {
  if (holding?.addedTabIndex) holding.group.removeAttribute('tabindex');
  holding = null;
}

/** Focuses the lost control again, or what the rule above chooses; false when nothing in the page could take it. */
export function restoreFocus(place: FocusPlace): boolean {
  if (place.element.isConnected && usable(place.element)) {
    place.element.focus();
    return true;
  }
  for (const { container, index } of place.around) {
    if (!container.isConnected) continue;
    const controls = controlsIn(container);
    const target = nearest(controls, index, place.identity);
    if (target) {
      target.focus();
      return true;
    }
    // A group left with something to read but nothing to press keeps the focus itself.
    if (container instanceof HTMLElement && container.matches(GROUP) && usable(container) && (container.textContent ?? '').trim() !== '') {
      hold(container, index, place.identity);
      return true;
    }
  }
  return false;
}

/** Watches the document for a focused control that goes; returns the function that stops it. */
export function installFocusGuard(doc: Document): () => void {
  let last: FocusPlace | null = null;
  const onFocusIn = (event: FocusEvent): void => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (holding && target !== holding.group) release();
    last = target === holding?.group ? last : placeOf(target);
  };
  const onFocusOut = (event: FocusEvent): void => {
    const target = event.target;
    // Focus moved away on purpose (a click on the page's background): nothing to bring back.
    queueMicrotask(() => {
      if (last?.element === target && doc.activeElement === doc.body && target instanceof Element && target.isConnected && usable(target)) last = null;
    });
  };
  const onChange = (): void => {
    const active = doc.activeElement;
    if (holding) {
      if (active !== holding.group) return release();
      const { group, index, identity } = holding;
      const target = nearest(controlsIn(group), index, identity);
      if (target) {
        release();
        target.focus();
      }
      return;
    }
    const lost = last;
    if (!lost) return;
    const gone = plainlyGone(lost.element);
    // Focus is elsewhere on purpose, or still where it was.
    if (!gone && active === lost.element) return;
    if (active !== null && active !== doc.body && active !== lost.element) return;
    if (!gone && active === doc.body) {
      // Moved within the page by a re-render (a row that changed place): the same control again.
      if (lost.element instanceof HTMLElement) lost.element.focus();
      return;
    }
    restoreFocus(lost);
  };
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  const observer = new MutationObserver(onChange);
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden', 'inert'] });
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
  };
}
