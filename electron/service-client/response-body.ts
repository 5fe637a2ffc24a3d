// Reads a service response body (bounded, so an HTML page or a runaway body
// cannot exhaust memory) and validates it with the shared schemas, turning
// every way it can be wrong into one sentence that names the problem.
import type { z } from 'zod';

/** Service answers are small JSON documents; anything bigger is not one of them. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor() {
    super(`the response body is larger than ${MAX_RESPONSE_BYTES} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Collects the body as text, stopping (and throwing) past the limit. */
export async function readBodyText(body: AsyncIterable<Buffer | Uint8Array> & { destroy?: (error?: Error) => void }, limit = MAX_RESPONSE_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.byteLength;
    if (length > limit) {
      body.destroy?.();
      throw new BodyTooLargeError();
    }
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** A short, single-line, printable excerpt of a body for an error message. */
export function excerpt(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export type JsonOutcome = { ok: true; value: unknown } | { ok: false; problem: string };

/** Parses JSON, describing what the body was instead when it is not JSON. */
export function parseJsonBody(text: string, contentType: string | undefined): JsonOutcome {
  if (text.trim() === '') return { ok: false, problem: 'the response body is empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const type = contentType ? contentType.split(';')[0]!.trim() : 'no content type';
    const looksTruncated = /^\s*[[{]/.test(text);
    const what = looksTruncated ? 'truncated or invalid JSON' : `not JSON (${type})`;
    return { ok: false, problem: `the response body is ${what}: "${excerpt(text)}"` };
  }
}

/** `result.safe: expected boolean, received string; status: ...` (at most three issues). */
export function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
    const message = issue.message.replace(/^Invalid input: /, '');
    return `${path}: ${message}`;
  });
  const more = error.issues.length > 3 ? ` (and ${error.issues.length - 3} more)` : '';
  return shown.join('; ') + more;
}
