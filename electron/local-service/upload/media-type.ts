// Detects the media type of an upload from its content (file-type's magic
// numbers), falling back to text/plain for UTF-8 text and
// application/octet-stream for anything else. The name is never consulted.
import { fileTypeFromFile } from 'file-type';

export async function detectMediaType(file: string, sample: Buffer, size: number): Promise<string> {
  try {
    const detected = await fileTypeFromFile(file);
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
