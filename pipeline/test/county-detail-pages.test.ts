// A feed of 30,000 outage points in one county (issue 24 part 6): the incidents kept per source are capped at ingest
// with a notice (county counts unchanged), and the function layer pages the county's incidents with limit, offset,
// total and a next link, in every format, under concurrent filtered requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { MAX_INCIDENTS_PER_SOURCE } from '../src/sources/incident-cap.ts';
import { sourceDef } from './shared-data.ts';
import { startServer } from '../src/serve/server.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const N = 30_000;
const FIPS = '48201'; // Harris County, TX: every point is drawn near its centre
const dir = makeTempDir('detail-pages');
const clock = manualClock(new Date('2026-09-01T10:00:00Z'));
/** Point i: 1 + i % 7 customers out, spread over 0.1° around downtown Houston. */
const out = (i: number) => 1 + (i % 7);
const features = Array.from({ length: N }, (_, i) => ({
  attributes: { OBJECTID: i + 1, OUTAGE_ID: `o${i}`, EST_CUSTOMERS: out(i) },
  geometry: { x: -95.42 + ((i * 7919) % 1000) / 10_000, y: 29.72 + ((i * 104729) % 1000) / 10_000 },
}));
let upstream: http.Server;
let pipeline: Pipeline;
let server: Awaited<ReturnType<typeof startServer>>;

const get = (p: string) => fetch(`${server.url}${p}`);
const json = async (p: string) => {
  const res = await get(p);
  return { status: res.status, link: res.headers.get('link'), body: await res.json() };
};

beforeAll(async () => {
  const body = JSON.stringify({ features, exceededTransferLimit: false });
  upstream = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/arcgis/rest/services/Outages/MapServer/0`;
  const source = sourceDef({
    id: 'big',
    utility: 'Big Storm Electric',
    connector: 'arcgis',
    states: ['TX'],
    url,
    options: { page_size: N },
  });
  pipeline = await Pipeline.open({
    stateDir: path.join(dir, 'state'),
    outDir: path.join(dir, 'public'),
    sources: [source],
    clock,
    simulated: true,
    http: LOOPBACK_HTTP,
  });
  await pipeline.cycle({ all: true });
  server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
});

afterAll(() =>
  closeAll(
    () => server?.close(),
    () => pipeline?.close(),
    () => new Promise((r) => upstream?.close(r)),
    () => removeTempDir(dir),
  ),
);

describe('a county with more incidents than a source may keep', () => {
  it('keeps the largest incidents up to the cap, says so, and leaves the county count whole', async () => {
    const total = features.reduce((s, _f, i) => s + out(i), 0);
    const county = await json(`/api/v1/live/counties/${FIPS}`);
    expect(county.body.data.customers_out).toBe(total);
    const pre = await json(`/api/v1/live/counties/${FIPS}/incidents`);
    expect(pre.body.data.count).toBe(MAX_INCIDENTS_PER_SOURCE);
    const smallest = Math.min(...pre.body.data.incidents.map((i: { customers_out: number }) => i.customers_out));
    expect(smallest).toBeGreaterThan(1); // the 1-customer points went first
    const sources = await json('/api/v1/live/sources');
    expect(sources.body.data.sources[0].notice).toMatch(/5,000 incidents beyond the 25,000 largest were not kept/);
  });

  it('pages the function layer answer: limit, offset, total, next; the last page has no next', async () => {
    const first = await json(`/api/v1/live/counties/${FIPS}/incidents?limit=100`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ count: 100, total: MAX_INCIDENTS_PER_SOURCE, offset: 0, limit: 100 });
    expect(first.body.data.next).toBe(`${server.url}/api/v1/live/counties/${FIPS}/incidents?limit=100&offset=100`);
    expect(first.link).toBe(`<${first.body.data.next}>; rel="next"`);
    const last = await json(
      `/api/v1/live/counties/${FIPS}/incidents?limit=100&offset=${MAX_INCIDENTS_PER_SOURCE - 40}`,
    );
    expect(last.body.data).toMatchObject({ count: 40, next: null });
    expect(last.link).toBeNull();
    const filtered = await json(`/api/v1/live/counties/${FIPS}/incidents?min_customers=7`);
    expect(filtered.body.data.count).toBe(1000); // the default page
    expect(filtered.body.data.total).toBeGreaterThan(1000);
    const csv = await get(`/api/v1/live/counties/${FIPS}/incidents?format=csv&limit=10&offset=5`);
    expect((await csv.text()).trim().split('\n')).toHaveLength(11);
    expect(csv.headers.get('link')).toMatch(/offset=15>; rel="next"$/);
  });

  it('refuses a limit outside 1–5,000 and a negative offset with the one error shape', async () => {
    for (const q of ['limit=0', 'limit=5001', 'limit=ten', 'offset=-1']) {
      const r = await json(`/api/v1/live/counties/${FIPS}/incidents?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.data.error).toMatchObject({ code: 'invalid_parameter', param: q.split('=')[0] });
    }
  });

  it('answers 16 concurrent filtered requests and /healthz beside them', async () => {
    const asks = Array.from({ length: 16 }, (_, i) =>
      json(`/api/v1/live/counties/${FIPS}/incidents?min_customers=${1 + (i % 7)}&limit=500`),
    );
    const health = get('/healthz');
    const [answers, h] = await Promise.all([Promise.all(asks), health]);
    expect(answers.every((a) => a.status === 200 && a.body.data.count <= 500)).toBe(true);
    expect([200, 503]).toContain(h.status);
  });
});
