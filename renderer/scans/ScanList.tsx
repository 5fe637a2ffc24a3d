// The scan list: a listbox virtualized with @tanstack/react-virtual, so only the
// visible rows exist in the DOM however long the history is. Pages load lazily
// as rows come into view. Keyboard: arrows, Page Up/Down, Home/End move the
// cursor; Enter opens the scan; Space ticks it for a bulk action, Shift+arrows
// tick a range, Ctrl/Cmd+A ticks every loaded scan; Escape unticks all, then
// closes the details.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { BulkBar } from './BulkBar.tsx';
import { isFiltered } from './filters.ts';
import type { ScanFeed } from './scan-feed.ts';
import { createRowSlots } from './row-slots.ts';
import { ROW_HEIGHT, ScanRow, rowDomId } from './ScanRow.tsx';

const LIST_ID = 'scan-list';

/** The mounted list's way to bring a row into view (the virtualizer scrolls it). */
let revealRow: ((index: number) => void) | null = null;

/** Puts keyboard focus on the list, its cursor on the scan `id` when it is a row (where the details go back to). */
export function focusScanList(id?: string): void {
  const index = id === undefined ? -1 : verdictStore.getState().ids.indexOf(id);
  if (index >= 0) {
    verdictStore.getState().setActiveIndex(index);
    revealRow?.(index);
  }
  document.getElementById(LIST_ID)?.focus();
}

/** Whether `element` is the list itself. */
export const isScanList = (element: Element): boolean => element.id === LIST_ID;

export function ScanList({ feed }: { feed: ScanFeed }): ReactElement {
  const { t, tn } = useTranslator();
  const ids = useVerdict((state) => state.ids);
  const listState = useVerdict((state) => state.listState);
  const countIsLowerBound = useVerdict((state) => state.totalIsLowerBound);
  const activeIndex = useVerdict((state) => state.activeIndex);
  const filtered = useVerdict((state) => isFiltered(state.filters));
  const setActiveIndex = useVerdict((state) => state.setActiveIndex);
  const select = useVerdict((state) => state.select);
  const toggleChecked = useVerdict((state) => state.toggleChecked);
  const checkRange = useVerdict((state) => state.checkRange);
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = ids.length;

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is mutable by design; rows are rendered from its output only
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const [rowSlots] = useState(createRowSlots);
  const slots = rowSlots.assign(items.map((item) => item.index));
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;

  useEffect(() => {
    if (last >= first) feed.ensureRange(first, last);
  }, [feed, first, last, ids]);

  const pick = useCallback(
    (index: number) => {
      setActiveIndex(index);
      const id = verdictStore.getState().ids[index];
      if (id !== undefined) select(id);
    },
    [select, setActiveIndex],
  );

  const check = useCallback(
    (index: number, range: boolean) => {
      const id = verdictStore.getState().ids[index];
      if (id === undefined) return;
      setActiveIndex(index);
      if (range) checkRange(index);
      else toggleChecked(id, index);
    },
    [checkRange, setActiveIndex, toggleChecked],
  );

  useEffect(() => {
    revealRow = (index) => virtualizer.scrollToIndex(index, { align: 'auto' });
    return () => {
      revealRow = null;
    };
  }, [virtualizer]);

  const move = (index: number): void => {
    const next = Math.max(0, Math.min(index, count - 1));
    setActiveIndex(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      event.preventDefault();
      const state = verdictStore.getState();
      // The range starts where the cursor is when it begins.
      if (state.checkAnchor === null) check(activeIndex, false);
      const next = Math.max(0, Math.min(activeIndex + (event.key === 'ArrowDown' ? 1 : -1), count - 1));
      move(next);
      checkRange(next);
      return;
    }
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a') {
      event.preventDefault();
      verdictStore.getState().setChecked(verdictStore.getState().ids.filter((id): id is string => id !== undefined));
      return;
    }
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + 1),
      ArrowUp: () => move(activeIndex - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Home: () => move(0),
      End: () => move(count - 1),
      Enter: () => pick(activeIndex),
      ' ': () => check(activeIndex, false),
      Escape: () => (verdictStore.getState().checked.size > 0 ? verdictStore.getState().clearChecked() : select(null)),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const activeRendered = items.some((item) => item.index === activeIndex);
  // Since scan jobs keep their clean files out of the list, it is empty more often (a first full scan).
  const empty = listState === 'ready' && count === 0;

  return (
    // A focus scope: when the bulk bar goes (its action done), focus moves on to the list.
    <section className="list" aria-labelledby="list-heading" data-focus-scope>
      <div className="list__header">
        <h2 id="list-heading" className="visually-hidden">
          {t('list.label')}
        </h2>
        <span className="list__count" aria-live="polite">
          {listState === 'ready' ? tn(countIsLowerBound ? 'list.countAtLeast' : 'list.count', count) : t('list.loading')}
        </span>
        <BulkBar />
      </div>
      <div className="list__columns" aria-hidden="true">
        <span>{t('list.col.name')}</span>
        <span>{t('list.col.size')}</span>
        <span>{t('list.col.status')}</span>
        <span>{t('list.col.verdict')}</span>
        <span>{t('list.col.time')}</span>
      </div>
      <div
        ref={scrollRef}
        id={LIST_ID}
        className="list__scroller"
        // An empty list is no listbox (one needs options): it holds the sentence that says so.
        role={empty ? undefined : 'listbox'}
        aria-multiselectable={empty ? undefined : 'true'}
        tabIndex={0}
        aria-label={empty ? undefined : t('list.label')}
        aria-activedescendant={count > 0 && activeRendered ? rowDomId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        data-testid="scan-list"
      >
        {empty ? (
          <p className="list__empty">{filtered ? t('list.emptyFiltered') : t('list.empty')}</p>
        ) : (
          <div className="list__canvas" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {items.map((item, i) => (
              <ScanRow key={slots[i]} index={item.index} start={item.start} setSize={count} onPick={pick} onCheck={check} />
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
