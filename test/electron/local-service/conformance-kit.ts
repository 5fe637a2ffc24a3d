// Shared by the conformance suite's files: the check of an error answer.
import { expect } from 'vitest';
import { errorBodySchema } from '../../../shared/service-contract/errors.ts';
import type { Reply } from './harness.ts';

/** The answer is `status` with the JSON error body `{code, message}`; returns the message. */
export function expectError(reply: Reply, status: number, code: string): string {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const body = errorBodySchema.parse(reply.body);
  expect(body.code).toBe(code);
  expect(body.message.length).toBeGreaterThan(0);
  return body.message;
}
