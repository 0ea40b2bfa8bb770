// How many outage points of the real captures in ../shared/data fall in no county, with and without the shoreline
// rule (geo/point-index.ts SHORE_KM). A maintenance script for issue 23 part 3: `npx tsx scripts/measure-unplaced.ts`.
// Points are found generically in every JSON capture (GeoJSON points and polygon centres, lat/lon fields, NISC
// outagePoint, Kubra's encoded geom.p, ArcGIS x/y in degrees); a sequence counts each distinct point once.
import fs from 'node:fs';
import path from 'node:path';
import polyline from '@mapbox/polyline';
import { feature } from 'topojson-client';
import { createRequire } from 'node:module';
import type { Feature, Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { parse } from 'csv-parse/sync';
import { pointIndex, type Locate } from '../pipeline/src/geo/point-index.ts';
import { connectorFor } from '../pipeline/src/sources/connectors.ts';
import { parseRegistry } from '../pipeline/src/registry/registry.ts';
import { recordedRaw } from '../pipeline/src/registry/fixtures.ts';
import { SHARED_DATA } from '../pipeline/test/shared-data.ts';

type Point = [number, number];
const LAT = ['lat', 'latitude', 'Latitude', 'LATITUDE', 'OUTAGE_LATITUDE', 'Lat'];
const LON = ['lon', 'lng', 'longitude', 'Longitude', 'LONGITUDE', 'OUTAGE_LONGITUDE', 'Lng', 'long'];
/** Captures outside the US (Nova Scotia Power): every point is rightly unplaced, so they are listed apart. */
const ABROAD = /nspower/;

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN);
const plausible = ([lon, lat]: Point) =>
  Number.isFinite(lon) && Number.isFinite(lat) && lon < -60 && lon > -180 && lat > 15 && lat < 72;

function centre(rings: number[][][]): Point {
  const ring = rings[0];
  const n = ring.length;
  return [ring.reduce((s, p) => s + p[0], 0) / n, ring.reduce((s, p) => s + p[1], 0) / n];
}

/** Every point found anywhere in a parsed JSON document. */
function pointsIn(doc: unknown, out: Point[]): void {
  if (Array.isArray(doc)) {
    for (const d of doc) pointsIn(d, out);
    return;
  }
  if (!doc || typeof doc !== 'object') return;
  const o = doc as Record<string, unknown>;
  const g = o.type === 'Feature' ? (o.geometry as { type?: string; coordinates?: unknown } | null) : null;
  if (g?.type === 'Point') out.push(g.coordinates as Point);
  else if (g?.type === 'Polygon') out.push(centre(g.coordinates as number[][][]));
  else if (g?.type === 'MultiPolygon') out.push(centre((g.coordinates as number[][][][])[0]));
  const lat = LAT.find((k) => k in o);
  const lon = LON.find((k) => k in o);
  if (lat && lon) out.push([num(o[lon]), num(o[lat])]);
  const geom = o.geom as { p?: unknown } | undefined;
  if (Array.isArray(geom?.p) && typeof geom.p[0] === 'string' && !g) {
    const [la, lo] = polyline.decode(geom.p[0])[0] ?? [NaN, NaN];
    out.push([lo, la]);
  }
  const xy = o.geometry as { x?: unknown; y?: unknown } | undefined;
  if (xy && typeof xy.x === 'number' && typeof xy.y === 'number' && Math.abs(xy.x) <= 180) out.push([xy.x, xy.y]);
  for (const [k, v] of Object.entries(o)) if (k !== 'geometry' && k !== 'geom') pointsIn(v, out);
}

/** The captures: each payload file on its own, each sequence folder as one set of distinct points. */
function captures(): Array<{ name: string; files: string[] }> {
  const list: Array<{ name: string; files: string[] }> = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(geo)?json$/.test(e.name)) list.push({ name: path.relative(SHARED_DATA, p), files: [p] });
    }
  };
  walk(path.join(SHARED_DATA, 'payloads'));
  const seq = path.join(SHARED_DATA, 'sequences');
  for (const d of fs.readdirSync(seq).sort()) {
    const files = fs.readdirSync(path.join(seq, d)).filter((f) => /\.(geo)?json$/.test(f));
    list.push({ name: `sequences/${d}`, files: files.map((f) => path.join(seq, d, f)) });
  }
  return list;
}

/**
 * The registry's view: every fixture of every row (each file once) through the row's connector; its incidents with a
 * point, placed with and without the shore rule. This is what the service itself places.
 */
function byConnector(index: Locate): void {
  const text = fs.readFileSync('data/sources.csv', 'utf8');
  const rows = parse(text, { columns: true, comment: '#' }) as Array<Record<string, string>>;
  const defs = new Map(parseRegistry(text, { allStatuses: true }).sources.map((s) => [s.id, s]));
  const done = new Set<string>();
  let [points, before, after] = [0, 0, 0];
  for (const r of rows) {
    const def = defs.get(r.id);
    for (const f of (r.fixture ?? '').split(';').filter(Boolean)) {
      if (!def || done.has(f) || ABROAD.test(f)) continue;
      done.add(f);
      try {
        const snap = connectorFor(def.connector).normalize(
          recordedRaw(def.connector, def.url, path.join(SHARED_DATA, f)),
          def,
        );
        const located = snap.incidents.filter((i) => i.lat !== null && i.lon !== null);
        const b = located.filter((i) => !index(i.lon!, i.lat!, false)).length;
        const a = located.filter((i) => !index(i.lon!, i.lat!)).length;
        [points, before, after] = [points + located.length, before + b, after + a];
        if (b || a) console.log(`${f} (${r.id})\t${located.length}\t${b}\t${a}`);
      } catch (err) {
        console.log(`${f} (${r.id})\tnot parsed: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }
  console.log(
    `Registry fixtures (${done.size} files): ${points} incident points, ${before} unplaced before, ${after} after`,
  );
}

function main(): void {
  const require = createRequire(import.meta.url);
  const topo = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection }>;
  const shapes = (feature(topo, topo.objects.counties) as unknown as { features: Feature<Geometry>[] }).features;
  const feats = shapes.map((f) => ({ fips: String(f.id), feature: f }));
  const index = pointIndex(feats);
  const strict = (x: number, y: number) => index(x, y, false);
  const shore = (x: number, y: number) => index(x, y);
  const rows: Array<[string, number, number, number]> = [];
  for (const c of captures()) {
    const seen = new Map<string, Point>();
    for (const f of c.files) {
      const found: Point[] = [];
      try {
        pointsIn(JSON.parse(fs.readFileSync(f, 'utf8')), found);
      } catch {
        continue; // not JSON: the XML captures are measured through their connectors' tests
      }
      for (const p of found.filter(plausible)) seen.set(`${p[0].toFixed(5)},${p[1].toFixed(5)}`, p);
    }
    if (seen.size === 0) continue;
    const pts = [...seen.values()];
    const before = pts.filter(([x, y]) => !strict(x, y)).length;
    const after = pts.filter(([x, y]) => !shore(x, y)).length;
    rows.push([c.name, pts.length, before, after]);
  }
  const us = rows.filter((r) => !ABROAD.test(r[0]));
  const sum = (i: 1 | 2 | 3) => us.reduce((s, r) => s + r[i], 0);
  console.log('capture\tpoints\tunplaced (polygons only)\tunplaced (with the shore rule)');
  for (const r of rows)
    console.log(`${r[0]}${ABROAD.test(r[0]) ? ' (outside the US)' : ''}\t${r[1]}\t${r[2]}\t${r[3]}`);
  console.log(`US captures: ${sum(1)} points, ${sum(2)} unplaced before, ${sum(3)} after`);
  console.log('\nfixture (row)\tincident points\tunplaced before\tafter');
  byConnector(index);
}

main();
