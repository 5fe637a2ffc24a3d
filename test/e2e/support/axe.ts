// axe-core in the page, without touching its CSP: the library's source is
// evaluated through the DevTools protocol (Runtime.evaluate runs as the
// debugger, not as a page script), then axe.run() checks the WCAG 2.1 A and AA
// rules over the whole document as it is at that moment.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** One CSS selector per offending element. */
  targets: string[];
}

let source: Promise<string> | null = null;
const axeSource = (): Promise<string> => (source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

interface Evaluated {
  result: { value?: unknown };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** The WCAG 2.1 A/AA violations in the page now (axe is injected once per document). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const evaluate = async (expression: string, awaitPromise = false): Promise<unknown> => {
      const answer = (await session.send('Runtime.evaluate', { expression, awaitPromise, returnByValue: true })) as Evaluated;
      if (answer.exceptionDetails) throw new Error(`axe: ${answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text}`);
      return answer.result.value;
    };
    if ((await evaluate('typeof window.axe')) !== 'object') await evaluate(await axeSource());
    const run = `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} }, resultTypes: ['violations'] })
      .then((results) => JSON.stringify(results.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((node) => node.target.join(' ')) }))))`;
    return JSON.parse((await evaluate(run, true)) as string) as AxeViolation[];
  } finally {
    await session.detach();
  }
}

/** "rule (n): target, target" per violation, for a readable failure message. */
export const describeViolations = (violations: readonly AxeViolation[]): string[] =>
  violations.map((violation) => `${violation.id} [${violation.impact}] (${violation.targets.length}): ${violation.targets.slice(0, 3).join(', ')}`);
