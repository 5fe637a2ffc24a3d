// Names in text Verdict writes out (the CLI's --json, history exports): always valid text, so
// any JSON or CSV reader takes it, and the exact bytes beside it when they are not UTF-8.
import { encodeFileName, hasEscapedBytes, withVisibleBytes } from '../../shared/file-name-bytes.ts';

/** The base64 of a path's raw bytes when it is not valid UTF-8; undefined when the text says it all. */
export function pathBytesOf(path: string): string | undefined {
  return hasEscapedBytes(path) ? Buffer.from(encodeFileName(path)).toString('base64') : undefined;
}

/**
 * A JSON.stringify replacer: every string with each escaped byte as `⟨0xFF⟩`. Left alone, a
 * lone surrogate is written as `\udcff`, which strict UTF-8 JSON readers refuse.
 */
export const visibleBytesReplacer = (_key: string, value: unknown): unknown => (typeof value === 'string' ? withVisibleBytes(value) : value);
