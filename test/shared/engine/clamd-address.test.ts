// `--clamd unix:PATH|tcp:HOST:PORT`: what is read, and what each wrong form is told.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLAMD_ADDRESS_INVALID, formatClamdAddress, parseClamdAddress, type ClamdAddress } from '../../../shared/engine/clamd-address.ts';

const value = (text: string): ClamdAddress => {
  const result = parseClamdAddress(text);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};
const problem = (text: string): string => {
  const result = parseClamdAddress(text);
  if (result.ok) throw new Error(`${text} was accepted`);
  expect(result.error.code).toBe(CLAMD_ADDRESS_INVALID);
  return result.error.message;
};

describe('parseClamdAddress', () => {
  test('a Unix socket', () => {
    expect(value('unix:/run/clamav/clamd.ctl')).toEqual({ kind: 'unix', path: '/run/clamav/clamd.ctl' });
    expect(value('  UNIX:/tmp/a b/clamd.sock ')).toEqual({ kind: 'unix', path: '/tmp/a b/clamd.sock' });
    // A colon in the path is the path's.
    expect(value('unix:/tmp/x:y.sock')).toEqual({ kind: 'unix', path: '/tmp/x:y.sock' });
  });

  test('TCP by name, IPv4 or bracketed IPv6; no port means clamd\'s 3310', () => {
    expect(value('tcp:127.0.0.1:3310')).toEqual({ kind: 'tcp', host: '127.0.0.1', port: 3310 });
    expect(value('tcp:clamav.internal:1')).toEqual({ kind: 'tcp', host: 'clamav.internal', port: 1 });
    expect(value('tcp:[::1]:65535')).toEqual({ kind: 'tcp', host: '::1', port: 65535 });
    expect(value('tcp:clamav')).toEqual({ kind: 'tcp', host: 'clamav', port: 3310 });
    expect(value('tcp:[fe80::1]')).toEqual({ kind: 'tcp', host: 'fe80::1', port: 3310 });
  });

  test('every wrong form says what is wrong and how to write it', () => {
    expect(problem('')).toMatch(/unix:\/path\/to\/clamd\.sock or tcp:HOST:PORT/);
    expect(problem('/run/clamav/clamd.ctl')).toMatch(/unix:\/run\/clamav\/clamd\.ctl/);
    expect(problem('clamd.sock')).toMatch(/write unix:/);
    expect(problem('http://localhost:3310')).toMatch(/"http" is not a kind of address/);
    expect(problem('unix:')).toMatch(/socket path is missing/);
    expect(problem('unix:run/clamd.ctl')).toMatch(/must be absolute/);
    expect(problem('unix:/tmp/a\0b')).toMatch(/NUL/);
    expect(problem('tcp:')).toMatch(/host is missing/);
    expect(problem('tcp::3310')).toMatch(/host is missing/);
    expect(problem('tcp:host:0')).toMatch(/from 1 to 65535, not "0"/);
    expect(problem('tcp:host:65536')).toMatch(/from 1 to 65535/);
    expect(problem('tcp:host:33a')).toMatch(/from 1 to 65535/);
    expect(problem('tcp:host:')).toMatch(/from 1 to 65535, not ""/);
    expect(problem('tcp:::1:3310')).toMatch(/IPv6 address goes in brackets/);
    expect(problem('tcp:[::1:3310')).toMatch(/closing \]/);
    expect(problem('tcp:[::1]3310')).toMatch(/after the \] as :PORT/);
    expect(problem('tcp:[zz]:1')).toMatch(/not an IPv6 address/);
    expect(problem('tcp:bad_host:1')).toMatch(/not a host name or an IP address/);
    expect(problem('tcp:-x:1')).toMatch(/not a host name/);
  });

  test('an error message quotes the input, so a typo shows', () => {
    expect(problem('tpc:localhost:3310')).toContain('"tpc:localhost:3310"');
  });
});

describe('formatClamdAddress', () => {
  test('writes what parseClamdAddress reads back', () => {
    const addresses: ClamdAddress[] = [
      { kind: 'unix', path: '/run/clamav/clamd.ctl' },
      { kind: 'tcp', host: '10.0.0.7', port: 3310 },
      { kind: 'tcp', host: '::1', port: 3311 },
    ];
    for (const address of addresses) expect(value(formatClamdAddress(address))).toEqual(address);
    expect(formatClamdAddress({ kind: 'tcp', host: '::1', port: 3311 })).toBe('tcp:[::1]:3311');
  });

  test('any text gives an address or an error, never a throw; an address survives a round trip', () => {
    const pieces = fc.constantFrom('unix:', 'tcp:', '/', ':', '[', ']', '::1', '127.0.0.1', 'host', '3310', '0', '65536', ' ', '\0', 'é');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 8 }).map((list) => list.join(''))), (text) => {
        const result = parseClamdAddress(text);
        if (result.ok) expect(parseClamdAddress(formatClamdAddress(result.value))).toEqual(result);
        else expect(result.error.message.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
