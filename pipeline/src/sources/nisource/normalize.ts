// NiSource normalize: each outage point is an incident placed in a county by its point, scheduled work counted and
// flagged; counties and customers_out are sums of those incidents (the feed has no county names and no headline total).
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { locatePoint } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { newIncident, remembered3 } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type NisourceAnswer, type NisourceOutage } from './schema.ts';
import { wallTime } from './times.ts';

/** NIPSCO's customers are mostly in Lake and Porter counties (Central); Indiana's default zone would be Eastern. */
const NIPSCO_ZONE = 'America/Chicago';
/** Planned work shows as cause `scheduled` in the capture; "unscheduled" is not planned. */
const PLANNED = /(^|[^a-z])(planned|scheduled)/i;
const says = (v: string | null | undefined) => typeof v === 'string' && PLANNED.test(v);
export const isPlanned = (o: NisourceOutage) => says(o.cause) || says(o.status) || says(o.comment);

function textOrNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = readRaw(raw);
  checkDown(data);
  const zone = zoneFor(source.states, source.options.time_zone || NIPSCO_ZONE);
  const feed = new PointFeed(source);
  let plannedOut = 0;
  data.outageList.forEach((o, i) => {
    const out = feed.count(o.affected, 'affected', `outage ${i}`);
    if (out === null) return;
    // Scheduled work in progress leaves customers without power: counted and flagged. The answer has no time of its
    // own, so scheduled work not yet begun cannot be told apart, and counts.
    if (isPlanned(o)) plannedOut += out;
    feed.add(incidentOf(o, out, feed, zone));
  });
  // An empty list says nothing against county grade; points that all fall outside the county shapes do.
  const snap = feed.finish('outage');
  snap.planned_out = plannedOut;
  return snap;
}

/** A map that says it is down publishes an empty or stale list: a failed poll, not "every outage restored". */
function checkDown(data: NisourceAnswer): void {
  const down = data.downResponse;
  if (down?.Down !== true) return;
  throw new SourceError(
    'bad_body',
    `NiSource says its outage list is down (downResponse.Down: true${down.Text ? `, "${down.Text}"` : ''}); the last good snapshot stays`,
  );
}

/** The feed has no outage ids: the point and the reported time stay put while an outage lasts. */
const idOf = remembered3((lat: number | null, lon: number | null, reported: string) => `${lat},${lon}@${reported}`);

function incidentOf(o: NisourceOutage, out: number, feed: PointFeed, zone: string): Incident {
  const lat = o.lat ?? null;
  const lon = o.lng ?? null;
  const point = pointAt(lat, lon);
  return newIncident({
    id: feed.id(idOf(lat, lon, o.reported ?? '')),
    // Placed wherever the point lies: the feed's points are not held to the row's states.
    fips: point ? locatePoint(point.lon, point.lat) : null,
    customers_out: out,
    etr: wallTime(o.restore, zone),
    crew_status: textOrNull(o.status),
    cause: textOrNull(o.cause) ?? textOrNull(o.comment),
    started_at: wallTime(o.reported, zone),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: textOrNull(o.city),
    planned: isPlanned(o),
  });
}
