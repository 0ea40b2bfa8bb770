// The Kubra connector on its rows' own real captures (DTE, Austin Energy, Alabama Power, Georgia Power): summary
// files, cluster-tile records and scrapers' per-incident lists. Every expected figure is computed here from the
// payload, with the tests' own county lookup (d3-geo over us-atlas, test/county-lookup.ts), never the connector's.
import { readFileSync } from 'node:fs';
import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import { hasSharedData, sharedJson, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining } from '../../../test/county-lookup.ts';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import type { KubraRaw } from './schema.ts';

/** The payloads' fields these tests read. */
interface TileRecord {
  desc: { cluster: boolean; n_out: number; cust_a: { val: number; mask?: number } };
  geom: { p: string[] };
}
interface FeatureCollection {
  features: Array<{
    geometry: { type: 'Point'; coordinates: number[] } | { type: 'Polygon'; coordinates: number[][][] };
    properties: TileRecord;
  }>;
}
interface IncidentRecord {
  id: string;
  longitude: number;
  latitude: number;
  custAffected: number;
}
interface SummaryFile {
  summaryFileData: {
    totals: Array<{ total_cust_a: { val: number }; total_cust_s: number }>;
    page_mode: { pausePublish?: boolean; redirectURL?: string };
  };
}
interface Point {
  lon: number;
  lat: number;
  out: number;
}

const row = (state: string, options: Record<string, unknown> = {}) =>
  sourceDef({ connector: 'kubra', utility: 'Kubra utility', states: [state], options });
const parse = (rel: string, state: string) => normalize(recordedRaw(sharedJson(rel)), row(state));

/** The tests' reading of a tile count: a `val` under `mask` is published as mask − 1 and means 1 customer per outage. */
const tileOut = (d: TileRecord['desc']): number =>
  typeof d.cust_a.mask === 'number' && d.cust_a.val < d.cust_a.mask ? Math.max(1, d.n_out) : d.cust_a.val;

/** The median of a polygon ring's vertices (closing vertex dropped): the point the connector gives an area. */
function ringMedian(ring: number[][]): [number, number] {
  const open = ring.slice(0, -1);
  const mid = (xs: number[]) => {
    xs.sort((a, b) => a - b);
    const h = xs.length >> 1;
    return xs.length % 2 ? xs[h] : (xs[h - 1] + xs[h]) / 2;
  };
  return [mid(open.map((p) => p[0])), mid(open.map((p) => p[1]))];
}

const tilePoints = (records: TileRecord[]): Point[] =>
  records.map((r) => {
    const [lat, lon] = polyline.decode(r.geom.p[0])[0];
    return { lon, lat, out: tileOut(r.desc) };
  });
const featurePoints = (fc: FeatureCollection): Point[] =>
  fc.features.map((f) => {
    const g = f.geometry;
    const [lon, lat] = g.type === 'Point' ? g.coordinates : ringMedian(g.coordinates[0]);
    return { lon, lat, out: f.properties.desc.cust_a.val };
  });
const incidentPoints = (list: IncidentRecord[]): Point[] =>
  list.map((r) => ({ lon: r.longitude, lat: r.latitude, out: r.custAffected }));

/** The expected snapshot figures from the points, by the tests' lookup. */
function expected(points: Point[]) {
  const by = new Map<string, number>();
  let unplaced = 0;
  for (const p of points) {
    const fips = p.out > 0 ? countyContaining(p.lon, p.lat) : undefined;
    if (p.out > 0 && fips) by.set(fips, (by.get(fips) ?? 0) + p.out);
    else if (p.out > 0) unplaced += 1;
  }
  const counties = [...by].sort(([a], [b]) => a.localeCompare(b)).map(([fips, out]) => ({ fips, out }));
  return { counties, unplaced, total: points.reduce((s, p) => s + p.out, 0) };
}

function expectPoints(snap: ReturnType<typeof normalize>, points: Point[], state: string) {
  const want = expected(points);
  expect(snap.counties.map((c) => ({ fips: c.fips, out: c.customers_out }))).toEqual(want.counties);
  expect(snap.counties.every((c) => c.customers_served === null)).toBe(true);
  expect(snap.customers_out).toBe(want.total);
  expect(snap.unmatched).toEqual(want.unplaced ? [expect.stringMatching(`^${want.unplaced} outage`)] : []);
  expect(snap.incidents.length).toBe(points.length);
  expect(new Set(snap.incidents.map((i) => i.id)).size).toBe(points.length);
  expect(snap.basis).toBe('outage_only');
  // nearly all of a utility's outages are in its own state (a few cross a line: Georgia Power's into Alabama)
  const home = want.counties.filter((c) => c.fips.startsWith(STATE_FIPS[state])).reduce((s, c) => s + c.out, 0);
  expect(home).toBeGreaterThan(want.total * 0.99);
  return want;
}
const STATE_FIPS: Record<string, string> = { MI: '26', TX: '48', AL: '01', GA: '13' };

describe.skipIf(!hasSharedData)('kubra on DTE summary files (summary-1/data.json)', () => {
  it.each(['dte-summary-2026-07-04T0004Z.json', 'dte-summary-2026-08-22T2221Z-bluesky.json'])('%s', (f) => {
    const raw = sharedJson(`payloads/kubra/${f}`) as SummaryFile;
    const totals = raw.summaryFileData.totals[0];
    const snap = parse(`payloads/kubra/${f}`, 'MI');
    expect([snap.customers_out, snap.customers_served]).toEqual([totals.total_cust_a.val, totals.total_cust_s]);
    expect([snap.basis, snap.counties, snap.incidents, snap.notice]).toEqual(['utility_total', [], [], null]);
  });

  it('replays the 35 versions of the July 2026 storm, each headline its own', () => {
    const dir = 'sequences/dte-kubra-summary-jul-2026';
    const files = readFileSync(sharedPath(`${dir}/index.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    expect(files.length).toBe(35);
    let peak = 0;
    for (const line of files) {
      const rel = `${dir}/${line.split(',')[1]}`;
      const totals = (sharedJson(rel) as SummaryFile).summaryFileData.totals[0];
      const snap = parse(rel, 'MI');
      expect([snap.customers_out, snap.customers_served], rel).toEqual([totals.total_cust_a.val, totals.total_cust_s]);
      peak = Math.max(peak, snap.customers_out ?? 0);
    }
    expect(peak).toBe(275_805);
  });

  it('says when the map has paused publishing or redirects', () => {
    const raw = sharedJson('payloads/kubra/dte-summary-2026-08-22T2221Z-bluesky.json') as SummaryFile;
    raw.summaryFileData.page_mode.pausePublish = true;
    expect(normalize({ summary: raw }, row('MI')).notice).toMatch(/paused publishing/);
    raw.summaryFileData.page_mode = { redirectURL: 'https://example.org/storm' };
    expect(normalize({ summary: raw }, row('MI')).notice).toMatch(/redirects to https:\/\/example.org\/storm/);
    raw.summaryFileData.totals = [];
    expect(() => normalize({ summary: raw }, row('MI'))).toThrow(/summaryFileData.totals: expected at least one/);
  });
});

describe.skipIf(!hasSharedData)('kubra on DTE cluster-tile records (verbatim file_data entries)', () => {
  it.each(['dte-cluster-records-2023-08-24T1501Z.json', 'dte-cluster-records-2026-08-22T2111Z.json'])(
    '%s: counties by the points, masked counts at their lower bound',
    (f) => {
      const records = sharedJson(`payloads/kubra/${f}`) as TileRecord[];
      const snap = parse(`payloads/kubra/${f}`, 'MI');
      expectPoints(snap, tilePoints(records), 'MI');
      // `{val: 4, mask: 5}` on a single outage is one customer, not four
      const masked = records.filter((r) => r.desc.cust_a.mask === 5 && !r.desc.cluster).length;
      expect(snap.incidents.filter((i) => i.customers_out === 1).length).toBeGreaterThanOrEqual(masked);
      expect(snap.incidents.some((i) => i.cause === 'Lightning strike' || i.cause === 'Wind damage')).toBe(true);
    },
  );

  it("with the summary, the headline is the summary's and the basis has its served count", () => {
    const summary = sharedJson('payloads/kubra/dte-summary-2026-08-22T2221Z-bluesky.json') as SummaryFile;
    const clusters = (recordedRaw(sharedJson('payloads/kubra/dte-cluster-records-2026-08-22T2111Z.json')) as KubraRaw)
      .clusters;
    const snap = normalize({ summary, clusters }, row('MI'));
    expect(snap.customers_out).toBe(summary.summaryFileData.totals[0].total_cust_a.val);
    expect(snap.customers_served).toBe(summary.summaryFileData.totals[0].total_cust_s);
    expect(snap.basis).toBe('county');
    expect(snap.counties.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!hasSharedData)('kubra on Austin Energy cluster records (GeoJSON, geom decoded by the scraper)', () => {
  it('the May 2025 storm peak: Point and Polygon features', () => {
    const rel = 'payloads/kubra/austin-energy-cluster-records-2025-05-29T0209Z.geojson';
    const want = expectPoints(parse(rel, 'TX'), featurePoints(sharedJson(rel) as FeatureCollection), 'TX');
    expect(want.total).toBe(58_356);
  });

  it('replays the 10 versions, counties and totals each from its own payload', () => {
    const dir = 'sequences/austin-energy-kubra-clusters-may-2025';
    const files = readFileSync(sharedPath(`${dir}/index.csv`), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    expect(files.length).toBe(10);
    for (const line of files) {
      const rel = `${dir}/${line.split(',')[1]}`;
      expectPoints(parse(rel, 'TX'), featurePoints(sharedJson(rel) as FeatureCollection), 'TX');
    }
  });
});

describe.skipIf(!hasSharedData)('kubra on per-incident lists (reshaped by kubra_scraper)', () => {
  it.each([
    ['alabama-power-incidents-2022-03-31T0524Z.json', 'AL'],
    ['georgia-power-incidents-2025-01-11T0848Z.json', 'GA'],
  ])('%s', (f, state) => {
    const list = sharedJson(`payloads/kubra/${f}`) as IncidentRecord[];
    const snap = parse(`payloads/kubra/${f}`, state);
    expectPoints(snap, incidentPoints(list), state);
    // the scraper's ids are kept (inc_id, or its `<encoded point>-<start time>`)
    expect(snap.incidents.map((i) => i.id).sort()).toEqual(list.map((r) => String(r.id)).sort());
  });
});
