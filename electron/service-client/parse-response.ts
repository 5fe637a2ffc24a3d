// Turns a response into the operation's value: an HTTP error status becomes its
// ServiceError, a body that is not JSON, of the wrong shape or inconsistent
// becomes `malformed_response`, each with a sentence naming the problem.
import type { Dispatcher } from 'undici';
import { errorFromStatus } from './http-errors.ts';
import type { Operation } from './client-state.ts';
import { describeIssues, parseJsonBody, readBodyText } from './response-body.ts';
import { reword, type Scrub } from './scrub-error.ts';
import { wordedServiceError } from './service-error.ts';

export async function parseResponse<T>(response: Dispatcher.ResponseData, op: Operation<T>, origin: string, scrub: Scrub): Promise<T> {
  const contentType = response.headers['content-type'];
  const text = await readBodyText(response.body);
  const json = parseJsonBody(text, Array.isArray(contentType) ? contentType[0] : contentType);
  const { statusCode } = response;
  if (statusCode < 200 || statusCode > 299) {
    throw reword(errorFromStatus(statusCode, response.headers, json.ok ? json.value : undefined, { operation: op.operation, origin }), scrub);
  }
  if (!json.ok) {
    throw wordedServiceError('malformed_response', { cause: 'answer_not_understood', operation: op.operation, detail: scrub(json.problem) }, { status: statusCode });
  }
  const parsed = op.schema.safeParse(json.value);
  if (!parsed.success) {
    throw wordedServiceError('malformed_response', { cause: 'answer_wrong_shape', operation: op.operation, detail: scrub(describeIssues(parsed.error)) }, { status: statusCode });
  }
  const problem = op.check?.(parsed.data);
  if (problem) throw wordedServiceError('malformed_response', { cause: 'answer_inconsistent', operation: op.operation, detail: scrub(problem) }, { status: statusCode });
  return parsed.data;
}
