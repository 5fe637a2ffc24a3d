// What every answer of the service must look like (spec section 7 and the
// decisions table): a documented status, and for an error the JSON body
// `{code, message}` whose code belongs to that status.
import { ERROR_CODES, errorBodySchema } from '../../../../shared/service-contract/errors.ts';
import type { RawResponse } from '../../../support/raw-http.ts';

/** Statuses of successful answers: 200 (a scan, or a sync result) and 202 (accepted async). */
const SUCCESS = new Set([200, 202]);

/** Why an answer breaks the contract, or null when it keeps it. A 500 is documented, but always a bug to a fuzzer. */
export function contractProblem(reply: Pick<RawResponse, 'status' | 'headers' | 'body'>): string | null {
  const { status } = reply;
  if (status === 500) return `500 internal_error: ${reply.body.slice(0, 200)}`;
  const isError = !SUCCESS.has(status);
  if (isError && !Object.values(ERROR_CODES).includes(status as never)) return `undocumented status ${status}`;
  if (!/^application\/json/.test(reply.headers['content-type'] ?? '')) return `${status} without a JSON content type (${reply.headers['content-type'] ?? 'none'}): ${JSON.stringify(reply.body.slice(0, 100))}`;
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    return `${status} with a body that is not JSON: ${JSON.stringify(reply.body.slice(0, 100))}`;
  }
  if (!isError) return typeof body === 'object' && body !== null ? null : `${status} with a JSON body that is not an object`;
  const parsed = errorBodySchema.safeParse(body);
  if (!parsed.success) return `${status} with an error body of another shape: ${reply.body.slice(0, 200)}`;
  const code = parsed.data.code as keyof typeof ERROR_CODES;
  if (ERROR_CODES[code] !== status) return `${status} with code ${parsed.data.code}`;
  if (parsed.data.message.length === 0) return `${status} ${code} without a message`;
  return null;
}
