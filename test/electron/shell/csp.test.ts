import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, parseCsp } from '../../../electron/shell/csp.ts';

const policy = parseCsp(contentSecurityPolicy());

describe('the Content-Security-Policy header', () => {
  it('denies by default and allows scripts only from the app itself', () => {
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('never allows inline or eval-ed code, nor remote origins', () => {
    const text = contentSecurityPolicy();
    expect(text).not.toContain("'unsafe-inline'");
    expect(text).not.toContain("'unsafe-eval'");
    expect(text).not.toContain("'unsafe-hashes'");
    expect(text).not.toMatch(/https?:|\*/);
  });

  it('agrees with the meta tag in renderer/index.html on every directive the meta tag sets', () => {
    const html = fs.readFileSync(path.join(import.meta.dirname, '../../../renderer/index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
    expect(meta, 'renderer/index.html carries a CSP meta tag').not.toBeNull();
    for (const [directive, sources] of parseCsp(meta![1]!)) expect(policy.get(directive), directive).toEqual(sources);
  });
});

describe('the CSP under the evaluator Electronegativity uses (Google csp-evaluator)', () => {
  it('finds nothing but the note that script-src \'self\' trusts everything the origin serves', async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(createRequire(import.meta.url).resolve('@doyensec/electronegativity'));
    const csp = require('@doyensec/csp-evaluator') as {
      CspParser: new (policy: string) => { csp: unknown };
      CspEvaluator: new (policy: unknown, version: unknown) => { evaluate(): Array<{ severity: number; directive: string; value: string }> };
      Version: { CSP3: unknown };
      severities: Record<string, number>;
    };
    const findings = new csp.CspEvaluator(new csp.CspParser(contentSecurityPolicy()).csp, csp.Version.CSP3).evaluate();
    // verdict://app serves only the built renderer: no JSONP, no Angular, no user uploads.
    expect(findings.map((f) => [f.directive, f.value, f.severity])).toEqual([['script-src', "'self'", csp.severities.MEDIUM_MAYBE]]);
    const weak = new csp.CspEvaluator(new csp.CspParser("script-src 'self' 'unsafe-inline'").csp, csp.Version.CSP3).evaluate();
    expect(weak.some((f) => f.severity === csp.severities.HIGH || f.severity === csp.severities.MEDIUM)).toBe(true);
  });
});
