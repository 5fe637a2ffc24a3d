// Where focus goes when the detail panel closes (its Close button, or Escape inside
// it): back to what it was opened from. That is the list, with its cursor on the
// scan's row, or a job's file; if that control is gone, the focus guard's nearest
// replacement; if the panel opened without one (a notification), the list.
import { useLayoutEffect, useRef, type RefObject } from 'react';
import { placeOf, restoreFocus, type FocusPlace } from '../app/focus-guard.ts';
import { focusScanList, isScanList } from '../scans/ScanList.tsx';

/** Remembers the opener each time the panel shows another scan from outside itself; returns the panel's close step for focus. */
export function useDetailOpener(selectedId: string | null, panel: RefObject<HTMLElement | null>): () => void {
  const opener = useRef<FocusPlace | null>(null);
  useLayoutEffect(() => {
    if (selectedId === null) {
      opener.current = null;
      return;
    }
    const active = document.activeElement;
    // "Show the earlier scan" inside the panel keeps the first opener.
    if (!(active instanceof HTMLElement) || active === document.body || panel.current?.contains(active)) return;
    opener.current = placeOf(active);
  }, [selectedId, panel]);

  return () => {
    const place = opener.current;
    if (place === null || (place.element.isConnected && isScanList(place.element))) focusScanList(selectedId ?? undefined);
    else restoreFocus(place);
  };
}
