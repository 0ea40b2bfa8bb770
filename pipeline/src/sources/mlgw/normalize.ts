// MLGW normalize: each GeoJSON feature is an outage, an incident placed in a county by its point (a polygon by the
// average of its outer ring); the feed has no headline, so customers_out is the sum of the features.
import type { SourceDef } from '../registry.ts';
import { emptySnapshot, toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, newIncident, remembered, placedCounties } from '../checks.ts';
import { readRaw, type MlgwFeature, type MlgwGeometry, type Position } from './schema.ts';

/** Memphis keeps Central time; Tennessee is split between zones, so the row's state alone would not say so. */
const DEFAULT_ZONE = 'America/Chicago';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readRaw(raw).features;
  const zone = zoneFor(source.states, source.options.time_zone || DEFAULT_ZONE);
  const states = new Set(source.states.map((s) => findState(s)?.fips));
  const snap = emptySnapshot(source.utility);
  const ids = new Set<string>();
  for (const f of features) {
    const incident = incidentOf(f, ids, zone, states);
    snap.incidents.push(incident);
  }
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'point');
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.basis =
    snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips)
      ? 'county'
      : 'outage_only';
  return snap;
}

/** `MM/DD/YYYY hh:mm[:ss] AM|PM`, the only time shape the feed has shown. */
const SHAPE = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2})(?::(\d{2}))? ?([AP]M)$/i;

function readEtr(text: string, zone: string): string | null {
  const m = SHAPE.exec(text.trim());
  if (!m || +m[4] < 1 || +m[4] > 12 || +m[5] > 59 || +(m[6] ?? 0) > 59) return null;
  // parseLocal knows the shape without seconds; they are added back after the zone is applied.
  const minute = parseLocal(`${m[1]}/${m[2]}/${m[3]} ${m[4]}:${m[5]} ${m[7]}`, zone, 0);
  // toIso drops placeholder years (01/01/1900) along with anything outside 1990–2099.
  return minute === null ? null : toIso(Date.parse(minute) + Number(m[6] ?? 0) * 1000);
}

/** Readers by zone, each remembering its texts across polls: the same outages come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();
export function etrOf(text: string | null | undefined, zone: string): string | null {
  if (!text) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readEtr(t, zone))));
  return read(text);
}

const usable = (p: Position | undefined): p is Position =>
  p !== undefined && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90 && !(p[0] === 0 && p[1] === 0);

/** The average of a ring's vertices; the closing vertex repeats the first, so it is left out. */
function ringCentre(ring: Position[]): Position | undefined {
  const closed = ring.length > 1 && ring[0][0] === ring.at(-1)?.[0] && ring[0][1] === ring.at(-1)?.[1];
  const n = closed ? ring.length - 1 : ring.length;
  if (n === 0) return undefined;
  let lon = 0;
  let lat = 0;
  for (let k = 0; k < n; k++) {
    lon += ring[k][0];
    lat += ring[k][1];
  }
  return [lon / n, lat / n];
}

/** The point that places an outage: the Point itself, else a polygon's outer-ring average (the first polygon's). */
export function pointOf(g: MlgwGeometry | null | undefined): Position | null {
  let p: Position | undefined;
  if (g?.type === 'Point') p = g.coordinates as Position;
  else if (g?.type === 'Polygon') p = ringCentre((g.coordinates as Position[][])[0] ?? []);
  else if (g?.type === 'MultiPolygon') p = ringCentre((g.coordinates as Position[][][])[0]?.[0] ?? []);
  return usable(p) ? [p[0], p[1]] : null;
}

function textOf(v: number | string | null | undefined): string | null {
  const t = v === null || v === undefined ? '' : String(v).trim();
  return t ? t : null;
}

function incidentOf(f: MlgwFeature, ids: Set<string>, zone: string, states: Set<string | undefined>): Incident {
  const p = f.properties;
  const point = pointOf(f.geometry);
  const fips = point ? locatePoint(point[0], point[1]) : null;
  // OUTAGE_NO is the outage's own number; without one, its point stays put while the outage lasts.
  const base = textOf(p.OUTAGE_NO) ?? (point ? `${point[1]},${point[0]}` : 'outage');
  let id = base;
  for (let k = 2; ids.has(id); k += 1) id = `${base}#${k}`;
  ids.add(id);
  return newIncident({
    id,
    // MLGW serves Shelby County, TN: a point outside the row's states is a misplaced point, not a county to count.
    fips: fips && states.has(fips.slice(0, 2)) ? fips : null,
    customers_out: countOf(p.CUR_CUST_AFF) ?? 0,
    etr: etrOf(p.EST_REPAIR_TIME, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat: point ? point[1] : null,
    lon: point ? point[0] : null,
    city: null,
  });
}
