// The core's `history.export(path, {format, query})`: checks what the caller sent,
// then streams the matching scans to the file (atomically, see export-format.ts).
// The path comes from the shell's save dialog or a CLI, never from the renderer.
import path from 'node:path';
import { exportFormatSchema, type ExportFormat, type HistoryExportResult } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { historyQuerySchema, type HistoryQuery } from '../../shared/scans/record.ts';
import type { History } from './history.ts';

export async function exportHistory(
  history: Pick<History, 'exportCsv' | 'exportJson'>,
  target: unknown,
  options: { format: ExportFormat; query?: HistoryQuery } | undefined,
): Promise<Result<HistoryExportResult>> {
  if (typeof target !== 'string' || !path.isAbsolute(target)) return err('invalid_request', 'The export needs an absolute file path.');
  const format = exportFormatSchema.safeParse(options?.format);
  if (!format.success) return err('invalid_request', 'The export format must be csv or json.');
  const parsed = historyQuerySchema.safeParse(options?.query ?? {});
  if (!parsed.success) return err('invalid_request', 'The history query is not valid.');
  // Every matching row: the list's paging does not apply to a file.
  const { offset: _offset, limit: _limit, ...query } = parsed.data;
  try {
    const written = format.data === 'csv' ? await history.exportCsv(target, query) : await history.exportJson(target, query);
    return ok({ rows: written.rows, path: target });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return err('export_failed', `The history could not be written to ${target} (${reason}).`);
  }
}
