// Issue 24, high row: an ArcGIS layer whose pages always say `exceededTransferLimit: true` (and a Kubra cluster layer
// of oversized tiles) fails its poll at the poll's budget with a reason naming the option that raises it, and the bytes
// the poll read and still holds are counted here: at most the budget while it runs, none once it failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError } from '../src/errors.ts';
import { fetch as arcgisFetch } from '../src/sources/arcgis/fetch.ts';
import { PollBudget } from '../src/sources/budget.ts';
import { HttpClient, LOOPBACK_HTTP } from '../src/sources/http.ts';
import { walkClusters } from '../src/sources/kubra/clusters.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { sourceHeaders, type SourceHttp } from '../src/sources/source-http.ts';
import { ScriptedFeed } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

/** A page of `n` incident features (~150 bytes each) that always says the server holds more. */
function endlessPage(n: number): string {
  const features = Array.from({ length: n }, (_, i) => ({
    attributes: { OBJECTID: i, OUTAGE_ID: `h-${i}`, EST_CUSTOMERS: 3, CAUSE: 'Under investigation' },
    geometry: { x: -80.45 + i * 1e-6, y: 25.6 },
  }));
  return JSON.stringify({ features, exceededTransferLimit: true });
}

const feed = new ScriptedFeed();
let client: HttpClient;
const PAGE = endlessPage(13_000); // ~2 MB, served for every offset
const TILE = JSON.stringify({
  file_data: Array.from({ length: 6_000 }, (_, i) => ({ id: `t-${i}`, desc: { cust_a: { val: 2 }, inc_id: null } })),
}); // ~400 KB of single outages, for every tile

beforeAll(async () => {
  await feed.start();
  // An ETag on every page: bodies with validators are cached, so a failed poll must forget them too.
  feed.set('/endless/0/query', { body: PAGE, headers: { etag: '"same"' } });
  for (let q = 0; q < 64; q++) feed.set(`/cluster/public/cluster-1/${quadkey(q)}.json`, { body: TILE });
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  await feed.stop();
});

const quadkey = (q: number) => `0${q.toString(4).padStart(3, '0')}`;

/** One poll as the pipeline runs it (pollOne): the row's budget, its cache scope; the view kept for the counts. */
async function poll(source: SourceDef, run: (http: SourceHttp) => Promise<unknown>) {
  const http = client.forSource(undefined, sourceHeaders(source.options), source.id, PollBudget.of(source.options));
  const err = await run(http).then(
    () => null,
    (e: unknown) => e,
  );
  if (err) http.discard();
  return { err: err as SourceError, http };
}

/** Body bytes the poll's objects still reference: answers it logged, and what the client caches for the source. */
const heldAfter = (http: SourceHttp, id: string) =>
  http.answered.reduce((n, a) => n + ((a as { body?: string }).body?.length ?? 0), 0) + client.cachedBytes(id);

describe('a hostile paginated ArcGIS layer', () => {
  const row = (id: string, options: Record<string, unknown>) =>
    sourceDef({ id, connector: 'arcgis', url: `${feed.base}/endless/0`, options: { mode: 'incidents', ...options } });

  it('fails at the byte budget naming max_poll_bytes, having read at most the budget and holding nothing', async () => {
    const budget = 7_000_000;
    const source = row('endless-bytes', { max_poll_bytes: budget });
    const hitsBefore = feed.hits.length;
    const { err, http } = await poll(source, (h) => arcgisFetch({ http: h, source, priority: 0 }));
    expect(err).toBeInstanceOf(SourceError);
    expect(err.reason).toBe('too_large');
    expect(err.message).toMatch(/budget of 7,000,000 body bytes.*raise options\.max_poll_bytes/);
    // Counted, not timed: what the poll read is the budget plus at most the chunk that crossed it.
    expect(http.budget.bytes).toBeGreaterThan(budget);
    expect(http.budget.bytes).toBeLessThan(budget + 1024 * 1024);
    expect(feed.hits.length - hitsBefore).toBe(Math.ceil(budget / PAGE.length)); // 4 pages, not max_pages' 100
    expect(heldAfter(http, source.id)).toBe(0);
  });

  it('fails at the record budget naming max_records, before the page that crosses it is kept', async () => {
    const source = row('endless-records', { max_records: 20_000 });
    const { err, http } = await poll(source, (h) => arcgisFetch({ http: h, source, priority: 0 }));
    expect(err).toMatchObject({ reason: 'too_large', message: expect.stringMatching(/raise options\.max_records/) });
    expect(http.budget.records).toBe(2 * 13_000);
    expect(http.requests).toBe(2);
    expect(heldAfter(http, source.id)).toBe(0);
  });

  it('refuses a budget option that is not a positive integer as a config error', async () => {
    const source = row('endless-bad', { max_poll_bytes: '64MB' });
    const { err } = await poll(source, (h) => arcgisFetch({ http: h, source, priority: 0 }));
    expect(err).toMatchObject({ reason: 'config', message: expect.stringMatching(/max_poll_bytes must be/) });
  });
});

describe('a Kubra cluster layer of oversized tiles', () => {
  it('fails at the byte budget however many tiles are in flight at once', async () => {
    const roots = Array.from({ length: 64 }, (_, q) => quadkey(q));
    const source = sourceDef({
      id: 'tiles',
      connector: 'kubra',
      url: `${feed.base}/x/currentState`,
      options: { quadkeys: roots, max_tiles: 5000, max_poll_bytes: 8_000_000 },
    });
    const { err, http } = await poll(source, (h) =>
      walkClusters({ http: h, source, priority: 0 }, feed.base, 'cluster', 'cluster-1'),
    );
    expect(err).toMatchObject({ reason: 'too_large', message: expect.stringMatching(/max_poll_bytes/) });
    // Tiles run 32 at once here: the budget is shared, so every read in flight stops when the poll's total crosses it.
    expect(http.budget.bytes).toBeLessThan(8_000_000 + 32 * 64 * 1024);
    expect(heldAfter(http, source.id)).toBe(0);
  });
});
