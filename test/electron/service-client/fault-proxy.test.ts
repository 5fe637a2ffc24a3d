// The fault proxy's own promises (other suites rely on them): rule matching
// by method, path and nth request, counting, and down/up on the same port.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, rejection, startFixture, type Fixture } from './fixture.ts';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

const get = async (path: string) => {
  const response = await request(`${fx.proxy.url}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } });
  await response.body.dump();
  return response.statusCode;
};

describe('fault proxy', () => {
  it('forwards untouched without rules and logs each request', async () => {
    expect(await get('/file-scans/nope')).toBe(404);
    expect(fx.proxy.requests.at(-1)).toMatchObject({ method: 'GET', pathname: '/file-scans/nope', fault: undefined });
  });

  it('applies a rule to the nth matching requests only, and counts', async () => {
    fx.proxy.clearLog();
    const rule = fx.proxy.addRule({ method: 'GET', path: /^\/file-scans\//, nth: [2, 4], fault: { kind: 'status', status: 503 } });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await get('/file-scans/x'));
    expect(statuses).toEqual([404, 503, 404, 503, 404]);
    expect(rule.matched).toBe(5);
    expect(rule.hits).toBe(2);
    expect(fx.proxy.count({ faulted: true })).toBe(2);
    expect(fx.proxy.count({ method: 'POST' })).toBe(0);
    rule.remove();
    expect(await get('/file-scans/x')).toBe(404);
  });

  it('`times` limits a rule to its first matches; a non-matching path is untouched', async () => {
    const rule = fx.proxy.addRule({ path: '/file-scans/y', times: 1, fault: { kind: 'status', status: 429, retryAfter: 7 } });
    expect(await get('/file-scans/z')).toBe(404);
    expect(await get('/file-scans/y')).toBe(429);
    expect(await get('/file-scans/y')).toBe(404);
    expect(rule.hits).toBe(1);
    fx.proxy.clearRules();
  });

  it('goes down (connections refused) and comes back on the same port', async () => {
    await fx.proxy.down();
    expect(fx.proxy.isDown).toBe(true);
    const error = await rejection(fx.client().getScan('x'), 'network');
    expect(error.code).toBe('ECONNREFUSED');
    await fx.proxy.up();
    expect(await get('/file-scans/x')).toBe(404);
  });
});
