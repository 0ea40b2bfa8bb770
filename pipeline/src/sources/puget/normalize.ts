// PSE normalize: each PseMap point is an incident placed in a county by its point; customers_out is the answer's
// summaries (unplanned, planned work, power shutoffs: every customer without power, as EAGLE-I counts them). Planned
// points are flagged; planned_out is the planned summary. A point whose count cannot be read is noted and left out.
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { type AnswerTimes, decimalOf, DisplayTimes, newIncident } from '../checks.ts';
import { headlineCount } from '../unreadable.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readRaw, SUMMARIES, WHAT, type PseAnswer, type PseAttribute, type PseEntry, type PsePoint } from './schema.ts';

/** Planned work: FilterType "Planned" with PlannedOutage true in the capture, not "Unplanned"; a PSPS shutoff is not. */
const PLANNED = /(^|[^a-z])planned/i;
export const isPlanned = (p: PsePoint | null | undefined): boolean =>
  !!p && (p.PlannedOutage === true || [p.FilterType, p.PinType, p.MapType].some((t) => !!t && PLANNED.test(t)));

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
  let plannedOut = 0;
  data.PseMap.forEach((entry, i) => {
    const f = fieldsOf(entry.DataProvider.Attributes);
    const out = feed.count(f.out, 'Customers impacted', `point ${i}`);
    if (out === null) return;
    const planned = isPlanned(entry.DataProvider.PointOfInterest);
    if (planned) plannedOut += out;
    feed.add(incidentOf(entry, f, out, planned, feed, clock));
  });
  // The summaries are PSE's own headline; the points' sum stands in only for an answer without them (pre-2025-06).
  const snap = feed.finish('point', headlineOf(data));
  snap.planned_out = data.PlannedOutageSummary
    ? headlineCount(
        data.PlannedOutageSummary.CustomerAfftectedCount,
        'PlannedOutageSummary.CustomerAfftectedCount',
        WHAT,
      )
    : plannedOut;
  return snap;
}

/** The summaries' customers summed (each must be readable), or null for an answer without an unplanned summary. */
function headlineOf(data: PseAnswer): number | null {
  if (!data.UnplannedOutageSummary) return null;
  let total = 0;
  for (const name of SUMMARIES) {
    const summary = data[name];
    if (summary) total += headlineCount(summary.CustomerAfftectedCount, `${name}.CustomerAfftectedCount`, WHAT);
  }
  return total;
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

function incidentOf(
  e: PseEntry,
  f: Partial<Record<Field, PseAttribute['Value']>>,
  out: number,
  planned: boolean,
  feed: PointFeed,
  clock: AnswerTimes,
): Incident {
  const poi = e.DataProvider.PointOfInterest;
  const point = pointAt(coord(poi?.Latitude), coord(poi?.Longitude));
  const lat = point?.lat ?? null;
  const lon = point?.lon ?? null;
  return newIncident({
    // The Outage ID (also the point's Id); the hand-made sample has neither, so the point stands in there.
    id: feed.idOf(textOf(f.id) ?? textOf(poi?.Id), `${lat},${lon}`),
    fips: feed.county(point),
    customers_out: out,
    etr: clock.at(textOf(f.etr)),
    crew_status: textOf(f.status),
    cause: textOf(f.cause),
    started_at: clock.at(textOf(f.start)),
    lat,
    lon,
    city: textOf(poi?.Title),
    planned,
  });
}
