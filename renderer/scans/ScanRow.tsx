// One row of the virtual list. Each field is selected on its own, so a change
// to another scan (or to this scan's neighbours) does not re-render this row.
import { memo, type ReactElement } from 'react';
import { displayName } from '../../shared/display-name.ts';
import { verdictOf } from '../../shared/scans/record.ts';
import { formatRowTime, formatSize } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { FileIcon } from '../icons/icons.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { StatusCell } from './StatusCell.tsx';
import { VerdictBadge } from './VerdictBadge.tsx';

export const ROW_HEIGHT = 44;

export const rowDomId = (index: number): string => `scan-row-${index}`;

interface ScanRowProps {
  index: number;
  start: number;
  setSize: number;
  onPick(index: number): void;
  /** Ticks or unticks the row for a bulk action (Shift: the range from the last one ticked). */
  onCheck(index: number, range: boolean): void;
}

export const ScanRow = memo(function ScanRow({ index, start, setSize, onPick, onCheck }: ScanRowProps): ReactElement {
  const { t, locale } = useTranslator();
  const id = useVerdict((state) => state.ids[index]);
  const record = useVerdict((state) => (id === undefined ? undefined : state.records.get(id)));
  const selected = useVerdict((state) => id !== undefined && state.selectedId === id);
  const active = useVerdict((state) => state.activeIndex === index);
  const checked = useVerdict((state) => id !== undefined && state.checked.has(id));
  // Positioned through the CSSOM (React's style prop), which the CSP allows.
  const position = { transform: `translateY(${start}px)` };
  const common = {
    id: rowDomId(index),
    role: 'option',
    'aria-posinset': index + 1,
    'aria-setsize': setSize,
    style: position,
  } as const;

  if (!record) {
    return (
      <div {...common} aria-selected={false} aria-busy="true" className="row row--placeholder" data-index={index}>
        <span className="row__name muted">{t('list.loading')}</span>
      </div>
    );
  }

  const verdict = verdictOf(record);
  // Hidden and bidi control characters shown as ⟨U+XXXX⟩, so a name cannot disguise its extension.
  const name = displayName(record.fileName);
  return (
    <div
      {...common}
      // The listbox is multi-select: "selected" is ticked for a bulk action; the open scan is "current".
      // Its name comes from its cells: the file's name, size, status, verdict (a word, not only a colour) and time.
      aria-selected={checked}
      aria-current={selected ? 'true' : undefined}
      className={`row row--${verdict}${selected ? ' row--selected' : ''}${active ? ' row--active' : ''}${checked ? ' row--checked' : ''}`}
      data-index={index}
      data-scan-id={record.id}
      data-status={record.status}
      data-verdict={verdict}
      data-disposition={record.disposition ?? undefined}
      onClick={(event) => (event.shiftKey ? onCheck(index, true) : onPick(index))}
    >
      <span className="row__name" title={displayName(record.path)}>
        {/*
          A tick box drawn for the eye and the mouse only: an option may hold no control of its own, so
          the row's aria-selected is what assistive technology reads, and Space ticks the row under the cursor.
        */}
        <span
          className="row__check"
          aria-hidden="true"
          data-testid="row-check"
          onClick={(event) => {
            event.stopPropagation();
            onCheck(index, event.shiftKey);
          }}
        />
        <FileIcon />
        {/* <bdi> isolates the name (direction from its own text), so a right-to-left name never reorders the row. */}
        <bdi className="row__filename">{name}</bdi>
      </span>
      <span className="row__size">{record.size === null ? t('detail.unknown') : formatSize(locale, record.size)}</span>
      <span className="row__status">
        <StatusCell record={record} />
      </span>
      <span className="row__verdict">
        <VerdictBadge record={record} />
      </span>
      <span className="row__time">
        <time dateTime={record.queuedAt}>{formatRowTime(locale, record.queuedAt)}</time>
      </span>
    </div>
  );
});
