// WEC normalize: each event is an incident placed by its point; its customers go to counties slice by slice (one
// event can span several counties), and a county's served count is CountyCusts as published (constant per county).
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, toCount, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { readRaw, type WecEvent, type WecSlice } from './schema.ts';
import { timeReader } from './times.ts';
import { type AnswerTimes, DisplayTimes, remembered3, sortedCounties, newIncident } from '../checks.ts';
import { OutageIds } from '../outage-ids.ts';
import { pointAt } from '../point-feed.ts';
import { recordCount } from '../unreadable.ts';

/** No planned flag was seen in the feed; a cause or crew status that says "planned" is taken as one. */
const PLANNED = /(^|[^a-z])planned/i;
export const isPlanned = (e: WecEvent) =>
  (typeof e.Cause === 'string' && PLANNED.test(e.Cause)) ||
  (typeof e.CrewStatus === 'string' && PLANNED.test(e.CrewStatus));
function textOrNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  // A bare array (the answer saved from the browser) is the same without a date: its times stay null.
  const data = readRaw(Array.isArray(raw) ? { events: raw } : raw);
  const refMs = data.captured_at ? Date.parse(data.captured_at) : NaN;
  const zone = zoneFor(source.states, source.options.time_zone);
  const clock = times.of(zone, refMs, timeReader(zone, Number.isNaN(refMs) ? null : refMs));
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const unmatched = new Set<string>();
  const ids = new OutageIds();
  let candidates = candidatesBySource.get(source);
  if (!candidates) candidatesBySource.set(source, (candidates = new Map()));
  const lost = { n: 0, out: 0 };
  for (const [k, e] of data.events.entries()) {
    const counts = sliceCounts(e, `event ${k}`, snap.unreadable);
    if (!counts) continue;
    const incident = incidentOf(e, counts, ids, clock);
    snap.incidents.push(incident);
    for (const [j, s] of (e.Slices ?? []).entries()) {
      const out = counts[j];
      const name = s.County?.trim();
      const fips = name ? countyOf(source.states, candidates, name, incident.fips, unmatched) : undefined;
      if (fips) addSlice(counties, fips, out, toCount(s.CountyCusts));
      else if (out > 0) {
        lost.n += 1;
        lost.out += out;
      }
    }
  }
  if (lost.n) snap.unmatched.push(`${lost.n} slice(s) not placed in a county (${lost.out} customers out)`);
  snap.unmatched.push(...unmatched);
  snap.counties = sortedCounties(counties);
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.planned_out = snap.incidents.reduce((s, i) => s + (i.planned ? i.customers_out : 0), 0);
  snap.basis =
    counties.size > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips) ? 'county' : 'outage_only';
  return snap;
}

/** Off times and ETRs, remembered across polls. */
const times = new DisplayTimes(60 * 86_400_000); // the reader's window (times.ts)

/** The feed has no event ids: the point and the off time stay put while an outage lasts. Remembered by its parts
 * across polls (formatting and hashing a new text per event cost a fifth of JSON.parse). */
const idOf = remembered3((lat: number | null, lon: number | null, off: string) => `${lat},${lon}@${off}`);

/** Sums a slice's customers out into its county; served is the county's own figure, so it is set, never summed. */
function addSlice(counties: Map<string, CountyCount>, fips: string, out: number, served: number | null): void {
  const row = counties.get(fips);
  if (!row) counties.set(fips, { fips, customers_out: out, customers_served: served });
  else {
    row.customers_out += out;
    row.customers_served ??= served;
  }
}

/** Each source's county candidates by slice name, kept across polls (a source's states do not change). */
const candidatesBySource = new WeakMap<SourceDef, Map<string, string[]>>();

/**
 * Slice county names ("fond du lac") carry no state. A name found in one of the row's states is that county; a name
 * in several (Iron, Menominee: WI and MI) is the one the event's point lies in, else reported, never guessed.
 */
function countyOf(
  states: string[],
  candidates: Map<string, string[]>,
  name: string,
  pointFips: string | null,
  unmatched: Set<string>,
): string | undefined {
  let found = candidates.get(name);
  if (!found) {
    if (candidates.size >= 10_000) candidates.clear();
    found = [...new Set(states.map((s) => matchCounty(s, name)).filter((f): f is string => !!f))];
    candidates.set(name, found);
  }
  if (found.length === 1) return found[0];
  if (pointFips && found.includes(pointFips)) return pointFips;
  unmatched.add(found.length === 0 ? name : `${name} (in ${states.join(' and ')}; the point does not say which)`);
  return undefined;
}

/** Each slice's customers out, or null (each unreadable one noted) when any slice's count cannot be read. */
function sliceCounts(e: WecEvent, label: string, notes: string[]): number[] | null {
  const counts = (e.Slices ?? []).map((s, j) =>
    recordCount(s.AffectedCusts, 'AffectedCusts', `${label} slice ${j}`, notes),
  );
  return counts.every((n) => n !== null) ? (counts as number[]) : null;
}

function incidentOf(e: WecEvent, counts: number[], ids: OutageIds, clock: AnswerTimes): Incident {
  const lat = e.Latitude ?? null;
  const lon = e.Longitude ?? null;
  const point = pointAt(lat, lon);
  let out = 0;
  let largest: WecSlice | null = null;
  let most = -1;
  for (const [j, s] of (e.Slices ?? []).entries()) {
    out += counts[j];
    if (counts[j] > most) [largest, most] = [s, counts[j]];
  }
  return newIncident({
    id: ids.made(idOf(lat, lon, e.OffTime ?? '')),
    fips: point ? locatePoint(point.lon, point.lat) : null,
    customers_out: out,
    etr: clock.at(e.ETR),
    crew_status: textOrNull(e.CrewStatus),
    cause: textOrNull(e.Cause),
    started_at: clock.at(e.OffTime),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: textOrNull(largest?.City),
    // Planned work in progress leaves customers without power: counted, as We Energies counts it, and flagged.
    planned: isPlanned(e),
  });
}
