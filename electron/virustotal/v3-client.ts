// One GET of VirusTotal's v3 API: a file's report by its SHA-256, the key in the
// x-apikey header. This module only ever sends GET with no body: Verdict never
// uploads a file. The status is the answer: 200 known, 404 unknown, 401 the key
// refused, 429 wait; anything else (and any network failure) is `unavailable`.
import type { VirusTotalAnswer } from '../../shared/virustotal/lookup.ts';
import { parseRetryAfter } from '../service-client/retry-policy.ts';
import { answerFromFileObject, errorCodeOf } from './file-report.ts';

export const VIRUSTOTAL_BASE_URL = 'https://www.virustotal.com';
/** A file object with every engine's result is tens of KB; far more is not a report. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

export type V3Outcome = VirusTotalAnswer | { kind: 'too_many'; retryAfterMs: number | undefined };

export async function getFileReport(baseUrl: string, sha256: string, key: string): Promise<V3Outcome> {
  const url = new URL(`/api/v3/files/${encodeURIComponent(sha256.toLowerCase())}`, baseUrl);
  let response;
  try {
    // Loaded at the first lookup, not with the app (module cache after).
    const { request } = await import('undici');
    response = await request(url, {
      method: 'GET',
      headers: { 'x-apikey': key, accept: 'application/json', 'user-agent': 'Verdict' },
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  } catch (error) {
    return { kind: 'unavailable', detail: networkDetail(error) };
  }
  const { statusCode, headers, body } = response;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(await readCapped(body));
  } catch {
    // Not JSON, or too long: the status still says what happened.
  }
  switch (statusCode) {
    case 200:
      return answerFromFileObject(parsed) ?? { kind: 'unavailable', detail: 'VirusTotal answered with something that is not a file report.' };
    case 404:
      return { kind: 'unknown' };
    case 401:
      return { kind: 'key_refused' };
    case 429:
      return { kind: 'too_many', retryAfterMs: parseRetryAfter(headers['retry-after']) };
    default: {
      const code = errorCodeOf(parsed);
      return { kind: 'unavailable', detail: `VirusTotal answered HTTP ${statusCode}${code ? ` (${code})` : ''}.` };
    }
  }
}

/** The body as text; a body over the cap ends the read (leaving the loop destroys the stream). */
async function readCapped(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('too long');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What went wrong on the way, in words and an error code only: never the request, whose headers hold the key. */
function networkDetail(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const name = typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'network error';
  return `VirusTotal could not be reached (${name}).`;
}
