// The ArcGIS connector on real captures of registry rows' own layers: DTE's outage-area layer (byte-exact f=geojson
// pages of the 4 July 2026 storm, polygons) and PG&E's outage points (an f=geojson layer-4 snapshot, and two f=json
// answers in Web Mercator). County sums are computed here with the test's own geometry and county lookup.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { expectUnreadableNeverZero } from '../test-kit/mutations.ts';
import { fetch } from './fetch.ts';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { hasSharedData, sharedJson, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { expectCountySums } from '../../../test/county-lookup.ts';

type Props = Record<string, unknown>;
type GeoFeature = { properties: Props; geometry: { type: string; coordinates: number[][][] } };
const DTE_PAGES = [0, 1000, 2000, 3000, 4000].map(
  (o) => `payloads/arcgis/dte/dte-arcgis-layer2-2026-07-04T0016Z-offset${o}.geojson`,
);
const DTE_OPTIONS = {
  format: 'geojson',
  order_by: 'OBJECTID ASC',
  fields: { id: 'JOB_ID', customers_out: 'NUM_CUST', etr: 'EST_REP_DTTM', cause: 'CAUSE', started_at: 'OFF_DTTM' },
};
const dte = sourceDef({ connector: 'arcgis', utility: 'DTE Electric', states: ['MI'], options: DTE_OPTIONS });

/** The test's own centre of an outage area: the mean of its outer ring's vertices. */
function centre(f: GeoFeature): [number, number] {
  const ring = f.geometry.coordinates[0];
  return [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];
}

describe.skipIf(!hasSharedData)("arcgis on registry rows' own captures", () => {
  it("DTE's outage-area layer, all five pages of the 4 July 2026 storm", () => {
    const features = DTE_PAGES.flatMap((p) => (sharedJson(p) as { features: GeoFeature[] }).features);
    expect(features).toHaveLength(4636);
    // An area without a number in NUM_CUST has no count DTE published: unknown, never 0, left out and noted.
    const counted = features.filter((f) => typeof f.properties.NUM_CUST === 'number');
    const count = (f: GeoFeature) => f.properties.NUM_CUST as number;
    const total = counted.reduce((s, f) => s + count(f), 0);
    const snap = normalizeReadable({ normalize }, { features }, dte);
    expect(snap.customers_out).toBe(total);
    expect(snap.unreadable).toHaveLength(features.length - counted.length);
    expect(snap.unreadable.every((n) => /: NUM_CUST (missing|null)$/.test(n))).toBe(true);
    const exp = expectCountySums(
      snap,
      counted.map((f) => ({ lon: centre(f)[0], lat: centre(f)[1], out: count(f) })),
    );
    expect(snap.incidents).toHaveLength(counted.length);
    expect(new Set(snap.incidents.map((i) => i.id)).size).toBe(counted.length); // JOB_ID is unique
    expect(exp.placed.size).toBeGreaterThan(5);
  });

  it("PG&E's layer-4 points as f=geojson (outagewatch, 9 July 2026)", () => {
    const doc = sharedJson('payloads/pge/outagewatch-2026-07-09/outages_l4.geojson') as {
      features: Array<{ properties: Props; geometry: { coordinates: [number, number] } }>;
    };
    const out = (p: Props) => Number(p.EST_CUSTOMERS);
    const total = doc.features.reduce((s, f) => s + out(f.properties), 0);
    expect([doc.features.length, total]).toEqual([25, 746]); // the README's figures for this capture
    const snap = normalize(doc, sourceDef({ connector: 'arcgis', states: ['CA'] }));
    expect(snap.customers_out).toBe(total);
    expectCountySums(
      snap,
      doc.features.map((f) => ({
        lon: f.geometry.coordinates[0],
        lat: f.geometry.coordinates[1],
        out: out(f.properties),
      })),
    );
  });

  it("PG&E's layer-8 outage areas of the same moment (polygons, f=geojson)", () => {
    const doc = sharedJson('payloads/pge/outagewatch-2026-07-09/outages_l8.geojson') as { features: GeoFeature[] };
    const out = (f: GeoFeature) => Number(f.properties.EST_CUSTOMERS);
    // One outage drawn as several polygons counts once (its first polygon places it): by OUTAGE_ID, as the points.
    const first = new Map<string, GeoFeature>();
    for (const f of doc.features)
      if (!first.has(String(f.properties.OUTAGE_ID))) first.set(String(f.properties.OUTAGE_ID), f);
    const outages = [...first.values()];
    const total = outages.reduce((s, f) => s + out(f), 0);
    const snap = normalize(doc, sourceDef({ connector: 'arcgis', states: ['CA'] }));
    expect(doc.features.length).toBe(28);
    expect([outages.length, total]).toEqual([25, 746]); // the layer-4 points' figures for the same moment
    expect(snap.customers_out).toBe(total);
    expect(snap.incidents).toHaveLength(outages.length);
    expectCountySums(
      snap,
      outages.map((f) => ({ lon: centre(f)[0], lat: centre(f)[1], out: out(f) })),
    );
  });

  it('an unreadable count is never read as 0, on the PG&E points and polygons (the kit’s mutations)', () => {
    for (const file of ['outages_l4.geojson', 'outages_l8.geojson']) {
      const doc = sharedJson(`payloads/pge/outagewatch-2026-07-09/${file}`);
      const leaves = expectUnreadableNeverZero(
        { normalize, fetch },
        doc,
        sourceDef({ connector: 'arcgis', states: ['CA'] }),
      );
      expect(
        leaves.some((l) => l.endsWith('EST_CUSTOMERS')),
        file,
      ).toBe(true);
    }
  });

  it("PG&E's two f=json answers ten minutes apart, in Web Mercator (wkid 102100)", () => {
    const R = 6378137;
    for (const name of ['2025-08-29T224647', '2025-08-29T225732']) {
      const doc = sharedJson(`payloads/pge/theomichel-2025-08-29/${name}-pge-events.json`) as {
        spatialReference: { wkid: number };
        features: Array<{ attributes: Props; geometry: { x: number; y: number } }>;
      };
      expect(doc.spatialReference.wkid).toBe(102100);
      const points = doc.features.map((f) => ({
        lon: (f.geometry.x / R) * (180 / Math.PI),
        lat: (Math.atan(Math.sinh(f.geometry.y / R)) * 180) / Math.PI,
        out: Number(f.attributes.EST_CUSTOMERS),
      }));
      const total = points.reduce((s, p) => s + p.out, 0);
      const snap = normalize(doc, sourceDef({ connector: 'arcgis', states: ['CA'] }));
      expect(snap.customers_out).toBe(total);
      expectCountySums(snap, points);
      expect(snap.incidents.every((i) => i.lat !== null && i.lat > 32 && i.lat < 42)).toBe(true);
    }
  });
});

describe.skipIf(!hasSharedData)("arcgis fetch of DTE's f=geojson pages over HTTP", () => {
  let server: http.Server;
  let client: HttpClient;
  let base = '';
  const seen: string[] = [];
  beforeAll(async () => {
    loadAtlas();
    server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      seen.push(
        `${u.searchParams.get('f')} ${u.searchParams.get('resultOffset')} ${u.searchParams.get('orderByFields')}`,
      );
      const page = DTE_PAGES[Number(u.searchParams.get('resultOffset')) / 1000];
      if (!page) return void res.writeHead(404).end();
      res.setHeader('content-type', 'application/geo+json');
      res.end(fs.readFileSync(sharedPath(page)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new HttpClient(LOOPBACK_HTTP);
  });
  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('pages on exceededTransferLimit with f=geojson and a stable order, and reads every feature', async () => {
    const source = { ...dte, url: `${base}/OMP/OutageLocations/MapServer/2` };
    const raw = (await fetch({ http: client.forSource(undefined, sourceHeaders({})), source, priority: 0 })) as {
      features: unknown[];
    };
    expect(seen).toEqual([0, 1000, 2000, 3000, 4000].map((o) => `geojson ${o} OBJECTID ASC`));
    expect(raw.features).toHaveLength(4636);
  });
});
