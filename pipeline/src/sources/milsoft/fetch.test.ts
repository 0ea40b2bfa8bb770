import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

const flint = (name: string) => fs.readFileSync(sharedPath(`payloads/milsoft/flint-emc-${name}-2026-10-10T1053Z.json`));
// Read when a test asks, so the test that needs no recorded file also runs without the shared data.
const gvea = () =>
  JSON.parse(fs.readFileSync(sharedPath('payloads/gvea/outages.json'), 'utf8')) as {
    summary: unknown;
    outages: unknown[];
  };
const summaryOut = () => (JSON.parse(flint('outagesummary').toString()) as { customersOutNow: number }).customersOutNow;

const seen: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';

beforeAll(async () => {
  const routes: Record<string, () => [number, string, Buffer | string]> = {
    '/flint/data/boundaries.json': () => [200, 'application/json', flint('boundaries')],
    '/flint/data/outages.json': () => [200, 'application/json', flint('outages')],
    '/flint/data/outageSummary.json': () => [200, 'application/json', flint('outagesummary')],
    '/nosum/data/outages.json': () => [200, 'application/json', flint('outages')],
    '/spa/data/outages.json': () => [200, 'application/json', flint('outages')],
    '/spa/data/outageSummary.json': () => [200, 'text/html', '<!doctype html><html><body>Outage Viewer</body></html>'],
    '/broken/data/outages.json': () => [200, 'application/json', flint('outages')],
    '/broken/data/outageSummary.json': () => [500, 'text/plain', 'oops'],
    '/gvea/data/outages': () => [200, 'application/json', JSON.stringify(gvea().outages)],
    '/gvea/data/outageSummary': () => [200, 'application/json', JSON.stringify(gvea().summary)],
  };
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push(path);
    const [status, type, body] = routes[path]?.() ?? [404, 'text/plain', 'not found'];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  // The first county lookup loads the atlas synchronously for seconds; a short server keep-alive could close a pooled
  // connection under the client meanwhile (ECONNRESET), so load it first and keep idle connections longer.
  loadAtlas();
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});

const poll = async (path: string, states = ['GA']) => {
  const source = sourceDef({ connector: 'milsoft' as never, states, url: `${base}${path}` });
  const raw = await fetch({ http: client.forSource(), source, priority: 0 });
  return { raw, snap: normalize(raw, source) };
};
/** Paths requested since `from` (the two requests of a poll run in parallel, so their order is not fixed). */
const since = (from: number) => seen.slice(from).sort();

describe('milsoft fetch', () => {
  it.skipIf(!hasSharedData)('boundaries.json plus the sibling outageSummary.json', async () => {
    const from = seen.length;
    const { snap } = await poll('/flint/data/boundaries.json');
    expect(since(from)).toEqual(['/flint/data/boundaries.json', '/flint/data/outageSummary.json']);
    expect(snap.basis).toBe('county');
    expect(snap.customers_out).toBe(summaryOut());
    expect(snap.counties.length).toBeGreaterThan(0);
  });
  it.skipIf(!hasSharedData)('outages.json plus the summary: the incidents sum to the headline', async () => {
    const { raw, snap } = await poll('/flint/data/outages.json');
    expect(Object.keys(raw as object).sort()).toEqual(['outages', 'summary']);
    expect(snap.customers_out).toBe(summaryOut());
    expect(snap.incidents.reduce((s, i) => s + i.customers_out, 0)).toBe(summaryOut());
  });
  it.skipIf(!hasSharedData)('a site without the summary (404) or serving its HTML page there still polls', async () => {
    for (const site of ['nosum', 'spa']) {
      const { raw, snap } = await poll(`/${site}/data/outages.json`);
      expect((raw as { summary: unknown }).summary).toBeNull();
      expect(snap.customers_out).toBe(summaryOut()); // the outage list's own sum
      expect(snap.customers_served).toBeNull();
    }
  });
  it.skipIf(!hasSharedData)('a failing summary fails the poll (it is not a missing file)', async () => {
    await expect(poll('/broken/data/outages.json')).rejects.toMatchObject({ reason: 'http_status', status: 500 });
  });
  it.skipIf(!hasSharedData)('keeps the url form without .json for the summary (GVEA)', async () => {
    const from = seen.length;
    const { snap } = await poll('/gvea/data/outages', ['AK']);
    expect(since(from)).toEqual(['/gvea/data/outageSummary', '/gvea/data/outages']);
    expect(snap.customers_served).toBe((gvea().summary as { customersServed: number }).customersServed);
    expect(snap.incidents).toHaveLength(gvea().outages.length);
  });
  it('refuses a url that names neither data file, without a request', async () => {
    const before = seen.length;
    await expect(poll('/flint/data/summary.json')).rejects.toMatchObject({ reason: 'config' });
    expect(seen.length).toBe(before);
  });
});
