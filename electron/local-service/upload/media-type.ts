// Detects the media type of an upload from its content (file-type's magic
// numbers), falling back to text/plain for UTF-8 text and
// application/octet-stream for anything else. The name is never consulted.
// An upload held in memory is examined there (the whole file, so the answer is
// the one its file would give), without reading it back from disk.
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';

/** The whole upload: its file, or all of its bytes. */
export type MediaSource = { path: string } | { content: Buffer };

export async function detectMediaType(source: MediaSource, sample: Buffer, size: number): Promise<string> {
  try {
    const detected = 'content' in source ? await fileTypeFromBuffer(source.content) : await fileTypeFromFile(source.path);
    if (detected) return detected.mime;
  } catch {
    // An unreadable or odd container is not fatal: fall through to the content sniff.
  }
  return looksLikeText(sample, sample.length < size) ? 'text/plain' : 'application/octet-stream';
}

// Tab, LF, VT, FF, CR and ESC appear in real text files; other C0 controls and NUL mean binary.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const BINARY_CONTROL = /[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/;

function looksLikeText(sample: Buffer, truncated: boolean): boolean {
  if (sample.length === 0) return false;
  try {
    // `stream` tolerates a multi-byte character cut off at the end of a truncated sample.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: truncated });
    return !BINARY_CONTROL.test(text);
  } catch {
    return false;
  }
}
