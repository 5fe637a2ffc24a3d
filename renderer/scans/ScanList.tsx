// The scan list: a listbox virtualized with @tanstack/react-virtual, so only the
// visible rows exist in the DOM however long the history is. Pages load lazily
// as rows come into view. Keyboard: arrows, Page Up/Down, Home/End move the
// cursor; Enter or Space opens the scan; Escape closes the details.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslator } from '../i18n/use-translator.ts';
import { verdictStore } from '../store/store.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { isFiltered } from './filters.ts';
import type { ScanFeed } from './scan-feed.ts';
import { ROW_HEIGHT, ScanRow, rowDomId } from './ScanRow.tsx';

export function ScanList({ feed }: { feed: ScanFeed }): ReactElement {
  const { t, tn } = useTranslator();
  const ids = useVerdict((state) => state.ids);
  const listState = useVerdict((state) => state.listState);
  const activeIndex = useVerdict((state) => state.activeIndex);
  const filtered = useVerdict((state) => isFiltered(state.filters));
  const setActiveIndex = useVerdict((state) => state.setActiveIndex);
  const select = useVerdict((state) => state.select);
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

  const move = (index: number): void => {
    const next = Math.max(0, Math.min(index, count - 1));
    setActiveIndex(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (count === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(activeIndex + 1),
      ArrowUp: () => move(activeIndex - 1),
      PageDown: () => move(activeIndex + page),
      PageUp: () => move(activeIndex - page),
      Home: () => move(0),
      End: () => move(count - 1),
      Enter: () => pick(activeIndex),
      ' ': () => pick(activeIndex),
      Escape: () => select(null),
    };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };

  const activeRendered = items.some((item) => item.index === activeIndex);

  return (
    <section className="list" aria-labelledby="list-heading">
      <div className="list__header">
        <h2 id="list-heading" className="visually-hidden">
          {t('list.label')}
        </h2>
        <span className="list__count" aria-live="polite">
          {listState === 'ready' ? tn('list.count', count) : t('list.loading')}
        </span>
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
        className="list__scroller"
        role="listbox"
        tabIndex={0}
        aria-label={t('list.label')}
        aria-activedescendant={count > 0 && activeRendered ? rowDomId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        data-testid="scan-list"
      >
        {listState === 'ready' && count === 0 ? (
          <p className="list__empty">{filtered ? t('list.emptyFiltered') : t('list.empty')}</p>
        ) : (
          <div className="list__canvas" style={{ height: `${virtualizer.getTotalSize()}px` }}>
            {items.map((item) => (
              <ScanRow key={item.key} index={item.index} start={item.start} setSize={count} onPick={pick} />
            ))}
          </div>
        )}
      </div>
    </section>
  );
}
