// Kubra fetch over real HTTP on 127.0.0.1: the summary file, and counties from the cluster layer, served from DTE's
// real captures (its summary-1/data.json, and its cluster tiles rebuilt from the recorded tile records and their URLs).
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { tallyByCounty } from '../../../test/county-lookup.ts';
import { hasSharedData, sharedJson } from '../../../test/shared-data.ts';
import { connectorKit, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import type { KubraRaw } from './schema.ts';

type Rec = {
  id: string;
  desc: { cluster: boolean; n_out: number; cust_a: { val: number; mask?: number } };
  geom: { p: string[] };
  source: string;
};
type SummaryFile = { summaryFileData: { totals: Array<{ total_cust_a: { val: number }; total_cust_s: number }> } };
const SUMMARY = 'payloads/kubra/dte-summary-2026-08-22T2221Z-bluesky.json';
const RECORDS = 'payloads/kubra/dte-cluster-records-2026-08-22T2111Z.json';
const DTE_BBOX = [-84.4, 41.7, -82.3, 44.2];
const records = recordedJson<Rec[]>(RECORDS, []);
const clusterPath = records[0]
  ? new URL(records[0].source).pathname.replace(/^\/(cluster-data)\/\d{3}\/(.*)\/public\/.*$/, '$1/{qkh}/$2')
  : 'c';

/**
 * The tile bodies by path: each recorded tile as it was (its records without the added `source`), and above each one
 * down from zoom 7 a tile holding a cluster, plus a copy of one single outage (real tiles repeat their single outages
 * in the children), so a walk that read either twice would count too much.
 */
function tiles(): Map<string, unknown> {
  const bodies = new Map<string, { file_data: unknown[] }>();
  for (const { source, ...r } of records) {
    const path = new URL(source).pathname;
    if (!bodies.has(path)) bodies.set(path, { file_data: [] });
    bodies.get(path)!.file_data.push(r);
    const q = /\/([0-3]+)\.json$/.exec(path)![1];
    for (let z = 7; z < q.length; z++) {
      const a = q.slice(0, z);
      const above = `/${clusterPath.replace('{qkh}', [...a.slice(-3)].reverse().join(''))}/public/cluster-1/${a}.json`;
      const cluster = { id: `${z}-0`, desc: { cluster: true, n_out: 2, cust_a: { val: 9 } }, geom: r.geom };
      bodies.set(above, { file_data: [cluster, { ...r, id: `${z}-1` }] });
    }
  }
  return bodies;
}

function answer(path: string, bodies: Map<string, unknown>): unknown {
  const api = /^\/stormcenter\/api\/v1\/stormcenters\/(\w+)\/views\/v\/(currentState|configuration\/dep-\w+)$/.exec(
    path,
  );
  if (api?.[2] === 'currentState')
    return {
      stormcenterDeploymentId: `dep-${api[1]}`,
      data: { interval_generation_data: `data/${api[1]}`, cluster_interval_generation_data: clusterPath },
    };
  if (api)
    return {
      config: {
        reports: api[1] === 'dom' ? [{ id: 'county', type: 'county' }] : [],
        layers: { data: { interval_generation_data: [{ id: 'cluster-1', type: 'CLUSTER_LAYER_1' }] } },
      },
    };
  if (path === '/data/dte/public/summary-1/data.json' || path === '/data/dom/public/summary-1/data.json')
    return sharedJson(SUMMARY);
  if (path === '/data/dom/public/reports/county_report.json') return sharedJson('payloads/kubra/dominion-report.json');
  return bodies.get(path);
}

const bodies = tiles();
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'kubra', utility: 'DTE Electric', states: ['MI'] },
  {
    type: 'application/json',
    route: (r) => {
      const body = answer(r.path, bodies);
      return body === undefined ? undefined : { json: body };
    },
    hit: (r) => r.path,
  },
);
const ctx = (instance: string, options: Record<string, unknown>) =>
  kit.source(`/stormcenter/api/v1/stormcenters/${instance}/views/v/currentState`, {
    states: instance === 'dom' ? ['VA', 'NC'] : ['MI'],
    options,
  });

describe.skipIf(!hasSharedData)('kubra fetch: summary and counties from the cluster layer', () => {
  it('reads the summary and walks every tile once, with no report or thematic request', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(ctx('dte', { summary: true, counties: 'clusters', bbox: DTE_BBOX }));
    expect(kit.hits.slice(0, 3)).toEqual([
      '/stormcenter/api/v1/stormcenters/dte/views/v/currentState',
      '/stormcenter/api/v1/stormcenters/dte/views/v/configuration/dep-dte',
      '/data/dte/public/summary-1/data.json',
    ]);
    expect(kit.hits.some((h) => /reports|thematic/.test(h))).toBe(false);
    // every recorded outage, once: the clusters' and the repeated copies above them are not read
    expect((raw as KubraRaw).clusters?.map((r) => r.geom?.p?.[0]).sort()).toEqual(
      records.map((r) => r.geom.p[0]).sort(),
    );
    const totals = (sharedJson(SUMMARY) as SummaryFile).summaryFileData.totals[0];
    expect([snap.customers_out, snap.customers_served, snap.basis]).toEqual([
      totals.total_cust_a.val,
      totals.total_cust_s,
      'county',
    ]);
    const points = records.map((r) => {
      const [lat, lon] = polyline.decode(r.geom.p[0])[0];
      const masked = typeof r.desc.cust_a.mask === 'number' && r.desc.cust_a.val < r.desc.cust_a.mask;
      return { lon, lat, out: masked ? Math.max(1, r.desc.n_out) : r.desc.cust_a.val };
    });
    const want = [...tallyByCounty(points)].sort(([a], [b]) => a.localeCompare(b));
    expect(snap.counties.map((x) => [x.fips, x.customers_out])).toEqual(want);
  });

  it('keeps a report deployment as it was, its headline from the summary only when asked', async () => {
    kit.hits.length = 0;
    const { snap: plain } = await kit.poll(ctx('dom', {}));
    expect(kit.hits.some((h) => h.includes('summary-1'))).toBe(false);
    const report = sharedJson('payloads/kubra/dominion-report.json') as {
      file_data: { totals: { cust_a: { val: number } } };
    };
    expect(plain.customers_out).toBe(report.file_data.totals.cust_a.val);
    const withSummary = normalize(await kit.fetch(ctx('dom', { summary: true })), ctx('dom', {}));
    expect(kit.hits.filter((h) => h.includes('summary-1'))).toEqual(['/data/dom/public/summary-1/data.json']);
    expect(withSummary.counties).toEqual(plain.counties);
    expect(withSummary.customers_out).toBe(
      (sharedJson(SUMMARY) as SummaryFile).summaryFileData.totals[0].total_cust_a.val,
    );
  });

  it('fails on a missing summary, and on an unknown county source before any request', async () => {
    await expect(
      kit.fetch(ctx('nosuch', { summary: true, counties: 'clusters', bbox: DTE_BBOX })),
    ).rejects.toMatchObject({
      status: 404,
    });
    kit.hits.length = 0;
    await expect(kit.fetch(ctx('dte', { counties: 'towns' }))).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(/options\.counties must be "report" or "clusters"/),
    });
    await expect(kit.fetch(ctx('dte', { counties: 'clusters' }))).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(/options\.quadkeys .* or options\.bbox/),
    });
    expect(kit.hits.some((h) => h.includes('/public/'))).toBe(false);
  });
});
