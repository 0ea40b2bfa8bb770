// The Milsoft requests over real HTTP on 127.0.0.1: a data file and the outageSummary.json beside it, served from Flint
// EMC's and GVEA's recorded answers; a site without the summary, or serving its HTML page there, still polls.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedPath } from '../../../test/shared-data.ts';
import { type Answer, connectorKit, expectRefusedUnsent } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const flint = (name: string) => fs.readFileSync(sharedPath(`payloads/milsoft/flint-emc-${name}-2026-10-10T1053Z.json`));
// Read when a test asks, so the test that needs no recorded file also runs without the shared data.
const gvea = () =>
  JSON.parse(fs.readFileSync(sharedPath('payloads/gvea/outages.json'), 'utf8')) as {
    summary: unknown;
    outages: unknown[];
  };
const summaryOut = () => (JSON.parse(flint('outagesummary').toString()) as { customersOutNow: number }).customersOutNow;

const json = (body: () => Buffer | string) => (): Answer => ({ body: body(), type: 'application/json' });
const ROUTES: Record<string, () => Answer> = {
  '/flint/data/boundaries.json': json(() => flint('boundaries')),
  '/flint/data/outages.json': json(() => flint('outages')),
  '/flint/data/outageSummary.json': json(() => flint('outagesummary')),
  '/nosum/data/outages.json': json(() => flint('outages')),
  '/spa/data/outages.json': json(() => flint('outages')),
  '/spa/data/outageSummary.json': () => ({
    body: '<!doctype html><html><body>Outage Viewer</body></html>',
    type: 'text/html',
  }),
  '/broken/data/outages.json': json(() => flint('outages')),
  '/broken/data/outageSummary.json': () => ({ status: 500, body: 'oops', type: 'text/plain' }),
  '/gvea/data/outages': json(() => JSON.stringify(gvea().outages)),
  '/gvea/data/outageSummary': json(() => JSON.stringify(gvea().summary)),
};
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'milsoft', states: ['GA'] },
  {
    route: (r) => ROUTES[r.path]?.(),
    fallback: { status: 404, body: 'not found', type: 'text/plain' },
    hit: (r) => r.path,
  },
);

const poll = (path: string, states = ['GA']) => kit.poll(kit.source(path, { states }));
/** Paths requested since `from` (the two requests of a poll run in parallel, so their order is not fixed). */
const since = (from: number) => kit.hits.slice(from).sort();

describe('milsoft fetch', () => {
  it.skipIf(!hasSharedData)('boundaries.json plus the sibling outageSummary.json', async () => {
    const from = kit.hits.length;
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
    const from = kit.hits.length;
    const { snap } = await poll('/gvea/data/outages', ['AK']);
    expect(since(from)).toEqual(['/gvea/data/outageSummary', '/gvea/data/outages']);
    expect(snap.customers_served).toBe((gvea().summary as { customersServed: number }).customersServed);
    expect(snap.incidents).toHaveLength(gvea().outages.length);
  });
  it('refuses a url that names neither data file, without a request', async () => {
    await expectRefusedUnsent(kit, ['/flint/data/summary.json']);
  });
});
