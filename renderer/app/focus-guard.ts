// Keeps keyboard focus from falling to <body> when the focused control goes
// away (an action that replaces its own button, a list item's "Remove", a bar
// that closes). Focus moves to whatever took the control's place in the
// nearest focus scope ([data-focus-scope]) that is still there; a scope left
// with nothing to focus takes focus itself (it has tabindex=-1) and hands it
// on to its first control when one appears (the next action once a move to
// quarantine is done).

const SCOPE = '[data-focus-scope]';
const FOCUSABLE = 'button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])';

/** Where an element sat: a scope around it and its position among the scope's controls. */
export interface FocusPlace {
  scope: Element;
  index: number;
}

/** A scope that holds focus until it has a control to give it to. */
let holding: FocusPlace | null = null;

const usable = (element: HTMLElement): boolean => !element.matches(':disabled') && element.getClientRects().length > 0 && element.closest('[inert]') === null;

function controlsIn(scope: Element): HTMLElement[] {
  return [...scope.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(usable);
}

/** The element's place in each scope around it, nearest first; the page itself is the last scope. */
export function placesOf(element: Element): FocusPlace[] {
  const places: FocusPlace[] = [];
  for (let scope = element.closest(SCOPE); scope !== null; scope = scope.parentElement?.closest(SCOPE) ?? null) {
    places.push({ scope, index: Math.max(0, controlsIn(scope).indexOf(element as HTMLElement)) });
  }
  const body = element.ownerDocument.body;
  places.push({ scope: body, index: Math.max(0, controlsIn(body).indexOf(element as HTMLElement)) });
  return places;
}

/** Focuses what is at the first of these places still in the page; false when none is. */
export function restoreFocus(places: readonly FocusPlace[]): boolean {
  for (const place of places) {
    if (!place.scope.isConnected) continue;
    const controls = controlsIn(place.scope);
    const target = controls[Math.min(place.index, controls.length - 1)];
    if (target) {
      target.focus();
      return true;
    }
    if (place.scope instanceof HTMLElement && place.scope.hasAttribute('tabindex')) {
      place.scope.focus();
      holding = { scope: place.scope, index: place.index };
      return true;
    }
  }
  return false;
}

/** Watches the document for a focused control that is removed or disabled; returns the function that stops it. */
export function installFocusGuard(doc: Document): () => void {
  let last: { element: Element; places: FocusPlace[] } | null = null;
  const onFocusIn = (event: FocusEvent): void => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (holding && target !== holding.scope) holding = null;
    last = { element: target, places: placesOf(target) };
  };
  const onChange = (): void => {
    const active = doc.activeElement;
    if (holding) {
      if (active === holding.scope) {
        const place = holding;
        holding = null;
        // Still nothing to focus: keep holding.
        restoreFocus([place]);
      }
      return;
    }
    if (active !== null && active !== doc.body) return;
    const gone = last;
    if (!gone || (gone.element.isConnected && !gone.element.matches(':disabled'))) return;
    last = null;
    restoreFocus(gone.places);
  };
  doc.addEventListener('focusin', onFocusIn);
  const observer = new MutationObserver(onChange);
  observer.observe(doc.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'hidden'] });
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
  };
}
