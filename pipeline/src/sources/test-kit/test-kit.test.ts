// The connector test kit's own parts: the upstream answers by route and keeps each request, the snapshot check
// refuses what no connector may publish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { expectWellFormed } from './expect-snapshot.ts';
import { Upstream } from './upstream.ts';

const up = new Upstream({
  type: 'application/json',
  headers: { date: 'Wed, 01 Jul 2026 00:00:00 GMT' },
  refuse: (r) => (r.headers.authorization === 'no' ? { status: 401, body: 'refused' } : undefined),
  routes: {
    '/a?x=1': { json: { a: 1 } },
    '/echo': (r) => ({ body: `${r.method} ${r.body}`, type: 'text/plain' }),
  },
  route: (r) => (r.path === '/tagged' ? { body: 'same', etag: '"t1"' } : undefined),
  fallback: { status: 503, body: 'busy' },
  hit: (r) => `${r.method} ${r.url}`,
});
beforeAll(() => up.start());
afterAll(() => up.close());

const get = (path: string, init?: RequestInit) => fetch(`${up.base}${path}`, init);

describe('connector test kit: the upstream', () => {
  it('answers a route by path and query, with the type and headers; anything else gets the fallback', async () => {
    const a = await get('/a?x=1');
    expect([a.status, a.headers.get('content-type'), a.headers.get('date'), await a.json()]).toEqual([
      200,
      'application/json',
      'Wed, 01 Jul 2026 00:00:00 GMT',
      { a: 1 },
    ]);
    const other = await get('/a?x=2');
    expect([other.status, await other.text()]).toEqual([503, 'busy']);
  });

  it('reads the request body, refuses before any route, keeps each request as the test asks', async () => {
    up.hits.length = 0;
    const echo = await get('/echo', { method: 'POST', body: 'hello' });
    expect([echo.headers.get('content-type'), await echo.text()]).toEqual(['text/plain', 'POST hello']);
    const refused = await get('/a?x=1', { headers: { authorization: 'no' } });
    expect([refused.status, await refused.text()]).toEqual([401, 'refused']);
    expect(up.hits).toEqual(['POST /echo', 'GET /a?x=1']);
  });

  it('answers 304 without a body when the request holds the answer’s ETag; a test may set a route', async () => {
    const first = await get('/tagged');
    expect([first.status, first.headers.get('etag'), await first.text()]).toEqual([200, '"t1"', 'same']);
    const again = await get('/tagged', { headers: { 'if-none-match': '"t1"' } });
    expect([again.status, await again.text()]).toEqual([304, '']);
    up.set('/a?x=2', { status: 201, body: 'made' });
    expect((await get('/a?x=2')).status).toBe(201);
  });
});

describe('connector test kit: a well-formed snapshot', () => {
  const snap = (over: Partial<Snapshot>): Snapshot => ({ ...emptySnapshot('U'), ...over });
  const county = (fips: string, out = 1) => ({ fips, customers_out: out, customers_served: null });
  const incident = (id: string, out = 1) => ({
    id,
    fips: null,
    customers_out: out,
    etr: null,
    crew_status: null,
    cause: null,
    started_at: null,
    lat: null,
    lon: null,
    city: null,
    planned: false,
  });

  it('passes counties in FIPS order with whole counts and unique incident ids', () => {
    expectWellFormed(snap({ customers_out: 3, counties: [county('01001'), county('12086', 2)] }));
  });

  it('fails counties out of order, repeated or not five digits, a count that is not whole, a repeated id', () => {
    for (const bad of [
      snap({ counties: [county('12086'), county('01001')] }),
      snap({ counties: [county('12086'), county('12086')] }),
      snap({ counties: [county('1234')] }),
      snap({ customers_out: 1.5 }),
      snap({ counties: [county('12086', -1)] }),
      snap({ incidents: [incident('a'), incident('a')] }),
    ])
      expect(() => expectWellFormed(bad)).toThrow();
  });
});
