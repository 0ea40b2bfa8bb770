// Point-list normalize: each listed outage is an incident placed in a county by its point (counties of the row's states
// only), else by its county name; customers out is the feed's headline when it names one, else the incidents' sum.
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident } from '../checks.ts';
import { optHeadlineCount } from '../unreadable.ts';
import { type Point, PointFeed, pointAt } from '../point-feed.ts';
import { specOf, type PointSpec } from './options.ts';
import { fieldsOf, figureOf, outagesOf, type OutageFields } from './schema.ts';
import { readEtr } from './etr.ts';

/** The `pointlist` connector's normalize: the row's options are the spec. */
export function normalize(raw: unknown, source: SourceDef): Snapshot {
  return normalizePoints(raw, source, specOf(source.options));
}

/**
 * The snapshot of a point-list answer read by `spec`. `refMs` is the answer's own time (its HTTP Date), which only
 * `day_at` ETRs need. The row's `options.time_zone` overrides the spec's zone, which overrides the first state's.
 */
export function normalizePoints(raw: unknown, source: SourceDef, spec: PointSpec, refMs = Number.NaN): Snapshot {
  const outages = outagesOf(spec, raw);
  const zone = zoneFor(source.states, source.options.time_zone || spec.timeZone);
  const feed = new PointFeed(source);
  const countField = spec.count.join('.');
  let plannedOut = 0;
  for (let i = 0; i < outages.length; i++) {
    const f = fieldsOf(spec, outages[i], i);
    const out = feed.count(f.count, countField, `${spec.noun} ${i}`);
    if (out === null) continue;
    // Planned work in progress counts, as the utility's headline counts it, and is flagged.
    if (f.planned === true) plannedOut += out;
    feed.add(incidentOf(f, out, { spec, source, feed, zone, refMs }));
  }
  const headline = spec.total
    ? optHeadlineCount(figureOf(spec, raw, spec.total), spec.total.join('.'), spec.what)
    : null;
  // A headline with no outage placed is still the utility's own total.
  const snap = feed.finish(spec.noun, headline, headline !== null ? 'utility_total' : 'outage_only');
  snap.customers_served = countOf(figureOf(spec, raw, spec.served));
  snap.planned_out = spec.planned ? plannedOut : null;
  return snap;
}

interface Context {
  spec: PointSpec;
  source: SourceDef;
  feed: PointFeed;
  zone: string;
  refMs: number;
}

const textOf = (v: number | string | null): string | null => {
  const t = v === null ? '' : String(v).trim();
  return t ? t : null;
};

const coordinate = (v: number | string | null): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/** The outage's point, when it has a usable one: finite, on the globe, not 0,0 (a feed's "no point"). */
function pointOf(f: OutageFields): Point | null {
  const [lon, lat] = f.point ?? [coordinate(f.lon), coordinate(f.lat)];
  return pointAt(lat, lon);
}

/** The county by the point (in the row's states only), else by the outage's county name in the row's states. */
function placeOf(f: OutageFields, point: Point | null, c: Context): string | null {
  const fips = c.feed.county(point);
  if (fips) return fips;
  const name = f.county?.trim();
  if (!name) return null;
  for (const s of c.source.states) {
    const named = matchCounty(s, name);
    if (named) return named;
  }
  c.feed.snap.unmatched.push(`${name} (no such county in ${c.source.states.join(', ')})`);
  return null;
}

/** The outage's own id; without one its id parts and its point (they stay put while it lasts), else `outage`. */
/** Without the feed's own id (`f.id`), the spec's id parts and the point. */
function madeId(f: OutageFields, point: Point | null): string {
  const parts = f.idParts.map(textOf).filter((p): p is string => p !== null);
  if (point) parts.push(`${point.lat},${point.lon}`);
  return parts.join('@') || 'outage';
}

/** An ETR counts only where the feed's flag (when the spec names one) says it gave one: true or the text "true". */
const flagged = (f: OutageFields, spec: PointSpec): boolean =>
  !spec.etrFlag || f.etrFlag === true || (typeof f.etrFlag === 'string' && f.etrFlag.trim().toLowerCase() === 'true');

function incidentOf(f: OutageFields, out: number, c: Context): Incident {
  const point = pointOf(f);
  return newIncident({
    id: c.feed.idOf(textOf(f.id), madeId(f, point)),
    fips: placeOf(f, point, c),
    customers_out: out,
    etr: flagged(f, c.spec) ? readEtr(f.etr, c.spec.etrFormat, c.zone, c.refMs) : null,
    crew_status: textOf(f.crewStatus),
    cause: textOf(f.cause),
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: textOf(f.city),
    planned: f.planned === true,
  });
}
