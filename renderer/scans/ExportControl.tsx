// "Export…" next to the filters: writes the scans matching the current filter to a
// CSV or JSON file. The main process asks where (its save dialog); the notice line
// says how many scans went to which file, or why nothing was written.
import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import type { ExportFormat } from '../../shared/bridge/api.ts';
import { api } from '../bridge/api.ts';
import { formatCount } from '../i18n/format.ts';
import { useTranslator } from '../i18n/use-translator.ts';
import { useVerdict } from '../store/use-verdict.ts';
import { pageQuery } from './filters.ts';

const FORMATS: readonly ExportFormat[] = ['csv', 'json'];

/** The last part of a path, for the notice (renderer code has no node:path). */
function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export function ExportControl(): ReactElement {
  const { t, locale } = useTranslator();
  const filters = useVerdict((state) => state.filters);
  const notify = useVerdict((state) => state.notify);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();

  // Open: the first choice gets focus, and a click elsewhere closes the choices.
  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector('button')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const exportAs = async (format: ExportFormat) => {
    close();
    setBusy(true);
    try {
      // Every matching scan, not one page of the list.
      // Every matching scan, a scan job's clean files too (the list shows those inside the job's row).
      const { offset: _offset, limit: _limit, jobRows: _jobRows, ...query } = pageQuery(filters, 0, 1);
      const result = await api.history.export(format, query);
      if (!result.ok) notify('error', 'export.failed', undefined, { tool: 'core', words: result.error.message });
      else if (result.value) {
        const { rows, path } = result.value;
        notify('info', rows === 1 ? 'export.done_one' : 'export.done_other', { count: formatCount(locale, rows), file: baseName(path) });
      }
    } catch (error) {
      notify('error', 'export.failed', undefined, { tool: 'core', words: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div
      className="export"
      ref={rootRef}
      onBlur={(event) => {
        // Tabbing away closes the choices.
        if (open && !rootRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          close();
        }
      }}
    >
      <button
        type="button"
        className="button"
        ref={triggerRef}
        aria-expanded={open}
        aria-controls={panelId}
        aria-disabled={busy || undefined}
        title={t('export.hint')}
        onClick={() => {
          if (!busy) setOpen(!open);
        }}
        data-testid="export-button"
      >
        {busy ? t('export.busy') : t('export.button')}
      </button>
      <div className="export__choices" id={panelId} ref={panelRef} role="group" aria-label={t('export.label')} hidden={!open}>
        {FORMATS.map((format) => (
          <button key={format} type="button" className="button button--quiet export__choice" onClick={() => void exportAs(format)}>
            {t(`export.${format}`)}
          </button>
        ))}
      </div>
    </div>
  );
}
