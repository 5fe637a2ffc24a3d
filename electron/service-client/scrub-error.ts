// Scrubs anything a server might echo back from what the client reports: the
// key and, for uploads, the local path.
import { redactSecret, ServiceError } from './service-error.ts';

export type Scrub = (message: string) => string;

export function scrubber(key: string, uploadPath: string | undefined): Scrub {
  return (message) => {
    let text = redactSecret(message, key);
    if (uploadPath !== undefined) text = text.split(uploadPath).join('[file]');
    return text;
  };
}

/** The same error, its message and its string parameters scrubbed. */
export function reword(error: ServiceError, scrub: Scrub): ServiceError {
  return new ServiceError(error.kind, scrub(error.message), {
    status: error.status,
    code: error.code,
    retryAfterMs: error.retryAfterMs,
    scanId: error.scanId,
    // The parameters say what the message says: scrubbed alike.
    ...(error.params ? { params: Object.fromEntries(Object.entries(error.params).map(([name, value]) => [name, typeof value === 'string' ? scrub(value) : value])) as typeof error.params } : {}),
  });
}
