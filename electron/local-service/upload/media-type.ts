// Detects the media type of an upload from its content (file-type's magic
// numbers), falling back to text/plain for UTF-8 text and
// application/octet-stream for anything else. The name is never consulted.
// An upload held in memory is examined there (the whole file, so the answer is
// the one its file would give), without reading it back from disk.
import { isUtf8 } from 'node:buffer';
import type { Detector } from 'file-type';

/** The whole upload: its file, or all of its bytes. */
export type MediaSource = { path: string } | { content: Buffer };

export async function detectMediaType(source: MediaSource, sample: Buffer, size: number): Promise<string> {
  try {
    // Loaded at the first upload (module cache after): the service thread starts without it, and a local scan never needs it.
    const { FileTypeParser } = await import('file-type');
    // One parser a file: it keeps the file's state between its awaits, and files are typed side by side.
    const parser = new FileTypeParser({ customDetectors: [GZIP] });
    const detected = 'content' in source ? await parser.fromBuffer(source.content) : await parser.fromFile(source.path);
    if (detected) return detected.mime;
  } catch {
    // An unreadable or odd container is not fatal: fall through to the content sniff.
  }
  return looksLikeText(sample, sample.length < size) ? 'text/plain' : 'application/octet-stream';
}

/**
 * gzip, told as file-type tells it without inflating the file: it inflates up to 1 MiB of every gzip file
 * to tell a .tar.gz from a .gz, and both are application/gzip (a 20,000-file tree from /usr/share, many
 * man pages: a second of the engine thread's CPU in zlib).
 */
const GZIP: Detector = {
  id: 'verdict.gzip',
  async detect(tokenizer) {
    const magic = new Uint8Array(3);
    const read = await tokenizer.peekBuffer(magic, { length: 3, mayBeLess: true });
    return read === 3 && magic[0] === 0x1f && magic[1] === 0x8b && magic[2] === 0x08 ? { ext: 'gz', mime: 'application/gzip' } : undefined;
  },
};

// Tab, LF, VT, FF, CR and ESC appear in real text files; other C0 controls and NUL mean binary.
const BINARY_CONTROL = new Uint8Array(128);
for (const code of [...range(0x00, 0x08), ...range(0x0e, 0x1a), ...range(0x1c, 0x1f), 0x7f]) BINARY_CONTROL[code] = 1;

/**
 * UTF-8 without binary control characters. Checked on the bytes (in valid UTF-8 a byte below
 * 0x80 is that character), so binary files cost no decoding and no exception. A truncated
 * sample may end inside a character: only when that is the sole fault does the decoder decide.
 */
function looksLikeText(sample: Buffer, truncated: boolean): boolean {
  if (sample.length === 0) return false;
  if (isUtf8(sample)) return !hasBinaryControl(sample);
  if (!truncated || ![1, 2, 3].some((cut) => cut <= sample.length && isUtf8(sample.subarray(0, sample.length - cut)))) return false;
  try {
    // `stream` tolerates a multi-byte character cut off at the end of a truncated sample.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return !hasBinaryControl(Buffer.from(text, 'utf8'));
  } catch {
    return false;
  }
}

function hasBinaryControl(bytes: Uint8Array): boolean {
  for (const byte of bytes) if (byte < 0x80 && BINARY_CONTROL[byte] === 1) return true;
  return false;
}

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
