// MLGW normalize: each GeoJSON feature is an outage, an incident placed in a county by its point (a polygon by the
// average of its outer ring); the feed has no headline, so customers_out is the sum of the features (a feature
// whose count cannot be read fails the poll: a sum without it would be a total MLGW never showed).
import type { SourceDef } from '../source-def.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { newIncident, remembered } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type MlgwFeature, type MlgwGeometry, type Position } from './schema.ts';

/** Memphis keeps Central time; Tennessee is split between zones, so the row's state alone would not say so. */
const DEFAULT_ZONE = 'America/Chicago';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readRaw(raw).features;
  const zone = zoneFor(source.states, source.options.time_zone || DEFAULT_ZONE);
  const feed = new PointFeed(source);
  features.forEach((f, i) => {
    const out = feed.count(f.properties.CUR_CUST_AFF, 'CUR_CUST_AFF', `feature ${i}`);
    if (out !== null) feed.add(incidentOf(f, out, feed, zone));
  });
  return feed.finish('point');
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

const usable = (p: Position | undefined): p is Position => p !== undefined && pointAt(p[1], p[0]) !== null;

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

function incidentOf(f: MlgwFeature, out: number, feed: PointFeed, zone: string): Incident {
  const p = f.properties;
  const at = pointOf(f.geometry);
  const point = at && pointAt(at[1], at[0]);
  return newIncident({
    // OUTAGE_NO is the outage's own number; without one, its point stays put while the outage lasts.
    id: feed.idOf(textOf(p.OUTAGE_NO), point ? `${point.lat},${point.lon}` : 'outage'),
    // MLGW serves Shelby County, TN: a point outside the row's states is a misplaced point, not a county to count.
    fips: feed.county(point),
    customers_out: out,
    etr: etrOf(p.EST_REPAIR_TIME, zone),
    crew_status: null,
    cause: null,
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
