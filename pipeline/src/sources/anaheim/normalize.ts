// Anaheim normalize: meter points grouped by incident ID; each group is one incident whose customers are its meters,
// placed in a county by its first point (the row's states only). The feed has no headline: customers_out is the sum.
import type { SourceDef } from '../source-def.ts';
import { toIso, type Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { newIncident } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type AnaheimFeature } from './schema.ts';

/** One incident's meters as met in the answer: the first point that has one and the first ETR text given. */
interface Group {
  meters: number;
  lon: number | null;
  lat: number | null;
  etr: string | null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const features = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const { groups, noId } = grouped(features);
  const feed = new PointFeed(source);
  for (const [id, g] of groups) {
    const point = pointAt(g.lat, g.lon);
    feed.add(
      newIncident({
        id,
        fips: feed.county(point),
        customers_out: g.meters,
        etr: g.etr === null ? null : etrOf(g.etr, zone),
        crew_status: null,
        cause: null,
        started_at: null,
        lat: g.lat,
        lon: g.lon,
        city: null,
      }),
    );
  }
  // The feed has no headline: customers_out is the meters' sum.
  const snap = feed.finish('incident');
  if (noId) snap.unmatched.push(`${noId} meter point(s) without an incident ID (not counted)`);
  return snap;
}

/** Groups the meter points by ID in the answer's order; points without an ID belong to no incident. */
function grouped(features: AnaheimFeature[]): { groups: Map<string, Group>; noId: number } {
  const groups = new Map<string, Group>();
  let noId = 0;
  for (const f of features) {
    const p = f.properties;
    const id = p?.ID === null || p?.ID === undefined ? '' : String(p.ID).trim();
    if (!id) {
      noId += 1;
      continue;
    }
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { meters: 0, lon: null, lat: null, etr: null }));
    g.meters += 1;
    if (g.lat === null) pointInto(g, f.geometry?.coordinates as number[] | undefined);
    if (g.etr === null && p?.ETR?.trim()) g.etr = p.ETR.trim();
  }
  return { groups, noId };
}

/** Keeps a usable [lon, lat] (in range, not Null Island) as the group's point. */
function pointInto(g: Group, c: number[] | null | undefined): void {
  if (!c) return;
  const point = pointAt(c[1], c[0]);
  if (!point) return;
  g.lon = point.lon;
  g.lat = point.lat;
}

/** An ETR with an offset or Z is an instant; a wall-clock time with its date (`2026-06-29T13:00:00`, fractions
 * dropped) is read in the row's zone (Pacific). Any other text is no time: its zone and year would be guesses. */
const ZONED = /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL = /^(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/;

export function etrOf(text: string, zone: string): string | null {
  if (ZONED.test(text)) return toIso(text);
  const m = LOCAL.exec(text);
  // The text carries its year, so parseLocal's reference date (used only to pick a missing year) does not matter.
  return m ? parseLocal(m[1], zone, 0) : null;
}
