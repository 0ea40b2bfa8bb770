// Recorded Kubra files as the connector's fetch returns them (registry/check.ts's rawOf): what public scrapers kept of the
// summary file and the cluster tiles, brought back to `{summary}` and `{clusters: [...]}`. A wire answer passes as is.
import polyline from '@mapbox/polyline';
import { isObj, type Obj } from '../checks.ts';
import { pointOf } from './clusters.ts';

/** The raw form a recorded Kubra file stands for. */
export function recordedRaw(doc: unknown): unknown {
  if (Array.isArray(doc))
    return { clusters: doc.map((r) => (isObj(r) && isObj(r.desc) ? tileRecord(r) : incident(r))) };
  if (!isObj(doc)) return doc;
  if (isObj(doc.summaryFileData)) return { summary: doc };
  if (doc.type === 'FeatureCollection' && Array.isArray(doc.features)) return { clusters: doc.features.map(feature) };
  return doc;
}

/** A tile record kept verbatim (fgregg/kubra `--raw`, plus its tile URL as `source`): its point decoded. */
const tileRecord = (r: Obj): Obj => ({ ...r, ...pointOf(r as { geom?: { p?: string[] } }) });

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * A GeoJSON feature whose properties are a tile record without its `geom` (ntdef/austin-energy-outages): a Point is
 * the decoded `geom.p`, encoded again so the outage keeps the id a live poll gives it. A Polygon is the decoded area
 * (`geom.a`) with the point dropped: its vertices' median stands for it (a mean would follow the stray vertex that
 * some of these rings open and close with, thousands of kilometres away).
 */
function feature(f: unknown): Obj {
  const props = isObj(f) && isObj(f.properties) ? f.properties : {};
  const g = isObj(f) && isObj(f.geometry) ? f.geometry : {};
  const c = g.coordinates;
  if (g.type === 'Point' && Array.isArray(c) && num(c[0]) !== null && num(c[1]) !== null) {
    const [lon, lat] = c as number[];
    return { ...props, geom: { p: [polyline.encode([[lat, lon]])] }, lat, lon };
  }
  const ring = g.type === 'Polygon' && Array.isArray(c) && Array.isArray(c[0]) ? (c[0] as unknown[]) : [];
  return { ...props, ...medianOf(ring) };
}

/** The coordinate-wise median of a ring's vertices (its closing vertex left out). */
export function medianOf(ring: unknown[]): { lat: number | null; lon: number | null } {
  const pts = ring.filter((p): p is number[] => Array.isArray(p) && num(p[0]) !== null && num(p[1]) !== null);
  const open = pts.length > 1 && pts[0][0] === pts.at(-1)![0] && pts[0][1] === pts.at(-1)![1] ? pts.slice(0, -1) : pts;
  if (open.length === 0) return { lat: null, lon: null };
  const mid = (xs: number[]): number => {
    const s = xs.sort((a, b) => a - b);
    const h = s.length >> 1;
    return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
  };
  return { lon: mid(open.map((p) => p[0])), lat: mid(open.map((p) => p[1])) };
}

/**
 * One record of a per-incident list (openkentuckiana's kubra_scraper lineage: Alabama Power, Georgia Power) as the
 * tile record it was built from. The scraper kept `cust_a.val` without `cust_a.mask`, so a masked count reads as its
 * published `mask − 1` (4), not as masked; `id` is the inc_id, or the scraper's `<encoded point>-<start time>`.
 */
function incident(r: unknown): Obj {
  const x = isObj(r) ? r : {};
  const desc = {
    inc_id: x.id ?? null,
    cluster: x.cluster === true,
    n_out: num(x.numberOut),
    cust_a: { val: num(x.custAffected) },
    etr: x.etr ?? null,
    start_time: x.startTime ?? null,
    cause: x.cause ?? null,
    crew_status: x.crewStatus ?? null,
    comments: x.comments ?? null,
  };
  return { id: x.id, desc, source: x.source, lat: num(x.latitude), lon: num(x.longitude) };
}
