// PSE normalize: each unplanned PseMap point is an incident placed in a county by its point; customers_out is the
// answer's UnplannedOutageSummary. Planned and PSPS points share the list and are left out of both.
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { type AnswerTimes, countOf, decimalOf, DisplayTimes, newIncident } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, type PseAttribute, type PseEntry, type PsePoint } from './schema.ts';

/** FilterType "Planned" (with PlannedOutage true) in the capture, not "Unplanned"; "PSPS" is a guess: none was seen. */
const SET_APART = /(^|[^a-z])planned|psps/i;
const says = (t: string | null | undefined) => !!t && SET_APART.test(t);
export function isPlanned(p: PsePoint | null | undefined): boolean {
  return !!p && (p.PlannedOutage === true || says(p.FilterType) || says(p.PinType) || says(p.MapType));
}

type Field = 'id' | 'out' | 'status' | 'cause' | 'start' | 'etr';
/** Each read attribute by RefName (2025-06 on) and by Name (the display label; the ETR's differs in case). */
const FIELDS = new Map<string, Field>([
  ['OutageEventId', 'id'],
  ['Outage ID', 'id'],
  ['Customers impacted', 'out'],
  ['Status', 'status'],
  ['Cause', 'cause'],
  ['StartDate', 'start'],
  ['Start time', 'start'],
  ['Est. Restoration time', 'etr'],
  ['Est. restoration time', 'etr'],
]);

/** Point times ("03/13 10:03 AM") have no year: they are read against LastUpdated and refused beyond 60 days. */
const WINDOW_MS = 60 * 86_400_000;
const times = new DisplayTimes(WINDOW_MS);

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone);
  const refMs = data.LastUpdated ? Date.parse(data.LastUpdated) : Number.NaN;
  const clock = times.of(zone, refMs, (text) => timeOf(text, zone, refMs));
  const feed = new PointFeed(source);
  for (const entry of data.PseMap) {
    if (!isPlanned(entry.DataProvider.PointOfInterest)) feed.add(incidentOf(entry, feed, clock));
  }
  // The summary is PSE's own headline; the points' sum stands in only for an answer without one (pre-2025-06).
  return feed.finish('point', countOf(data.UnplannedOutageSummary?.CustomerAfftectedCount));
}

/** ISO UTC of a point time, or null without a dated answer or beyond the window ("To Be Determined" too). */
function timeOf(text: string, zone: string, refMs: number): string | null {
  if (Number.isNaN(refMs)) return null;
  const iso = parseLocal(text, zone, refMs);
  return iso !== null && Math.abs(Date.parse(iso) - refMs) <= WINDOW_MS ? iso : null;
}

function textOf(v: number | string | null | undefined): string | null {
  const t = v === null || v === undefined ? '' : String(v).trim();
  return t ? t : null;
}

/** The attributes normalize reads, by field. */
function fieldsOf(attrs: PseAttribute[] | null | undefined): Partial<Record<Field, PseAttribute['Value']>> {
  const out: Partial<Record<Field, PseAttribute['Value']>> = {};
  for (const a of attrs ?? []) {
    const f = (a.RefName && FIELDS.get(a.RefName)) || (a.Name && FIELDS.get(a.Name));
    if (f && out[f] === undefined) out[f] = a.Value;
  }
  return out;
}

const coord = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

function incidentOf(e: PseEntry, feed: PointFeed, clock: AnswerTimes): Incident {
  const poi = e.DataProvider.PointOfInterest;
  const f = fieldsOf(e.DataProvider.Attributes);
  const point = pointAt(coord(poi?.Latitude), coord(poi?.Longitude));
  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  return newIncident({
    // The Outage ID (also the point's Id); the hand-made sample has neither, so the point stands in there.
    id: feed.id(textOf(f.id) ?? textOf(poi?.Id) ?? `${lat},${lon}`),
    fips: feed.county(point),
    customers_out: countOf(f.out) ?? 0,
    etr: clock.at(textOf(f.etr)),
    crew_status: textOf(f.status),
    cause: textOf(f.cause),
    started_at: clock.at(textOf(f.start)),
    lat,
    lon,
    city: textOf(poi?.Title),
  });
}
