// DataCapable normalize: events → incidents placed in counties (point, else AREA_COUNTY) and summed per county; the
// county count answer adds customers served per county, and gives the counties itself when no event says where it
// is. Planned outages share the events list: planned work in progress leaves customers without power, so it counts in
// incidents and customers_out, flagged `planned`, and planned_out is their sum (the answer has no time of its own, so
// a planned event that has not started cannot be told and is counted). The answer has no headline: customers out is the events' sum, so an event whose count cannot be read fails the poll
// naming the field (never a 0); a county row read for its count and unreadable is left out and noted.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, toIso, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { newIncident, remembered, sortedCounties } from '../checks.ts';
import { OutageIds } from '../outage-ids.ts';
import { recordCount } from '../unreadable.ts';
import { countyRows, placeEvent } from './places.ts';
import { readRaw, type DataCapableEvent } from './schema.ts';

/** "Planned Outage" (status), PLANNED / PLANNED_OUTAGE (type), "Planned maintenance" (cause) — not "Unplanned". */
const PLANNED = /(^|[^a-z])planned/i;

const says = (v: string | null | undefined) => typeof v === 'string' && PLANNED.test(v);
export function isPlanned(e: DataCapableEvent): boolean {
  return says(e.status) || says(e.type) || says(e.title) || says(e.cause);
}

/** Epoch ms as a number or a digit string; null for 0 and anything else. Remembered: times repeat poll after poll. */
const epochIso = remembered((v: number | string) => toIso(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
const timeOf = (v: unknown): string | null => (typeof v === 'number' || typeof v === 'string' ? epochIso(v) : null);
function textOrNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  // A bare events list (a fixture saved from the browser) is the same as {events} without county counts.
  const data = readRaw(raw);
  const snap = emptySnapshot(source.utility);
  const atlas = loadAtlas();
  const unmatchedNames = new Set<string>();
  let located = false;
  const ids = new OutageIds(); // an event listed twice is one outage
  for (const e of data.events) {
    const planned = isPlanned(e);
    const out = recordCount(e.numPeople, 'numPeople', `event ${e.id}`, snap.unreadable);
    const place = placeEvent(e, source.states, atlas);
    located ||= place.located;
    if (out === null) continue;
    if (place.unmatchedName) unmatchedNames.add(place.unmatchedName);
    const incident = ids.once(
      newIncident({
        id: ids.idOf(e.id, 'event'),
        fips: place.fips,
        customers_out: out,
        etr: timeOf(e.etrTime),
        crew_status: textOrNull(e.status),
        cause: textOrNull(e.cause),
        started_at: timeOf(e.startTime),
        lat: place.lat,
        lon: place.lon,
        city: textOrNull(e.city),
        planned,
      }),
    );
    if (incident) snap.incidents.push(incident);
  }
  // Counties from the answer's own out counts only when no event carries a place (they include planned outages, as
  // the events' sum now does).
  const fromAnswer = data.counties !== null && !located;
  const answer = data.counties
    ? countyRows(data.counties, source.states, snap.unmatched, fromAnswer ? snap.unreadable : null)
    : null;
  const counties = new Map<string, CountyCount>();
  for (const row of answer?.rows ?? []) {
    if (!fromAnswer) addCounty(counties, row.fips, 0, row.served);
    else if (row.out !== null) addCounty(counties, row.fips, row.out, row.served);
  }
  if (!fromAnswer) placeIncidents(snap.incidents, counties, snap.unmatched);
  snap.unmatched.push(...unmatchedNames);
  snap.counties = sortedCounties(counties);
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = answer?.served ?? null;
  snap.planned_out = snap.incidents.reduce((s, i) => s + (i.planned ? i.customers_out : 0), 0);
  // An empty list says nothing against county grade; events that all lack a place (and no answer) do.
  snap.basis = located || answer !== null || data.events.length === 0 ? 'county' : 'outage_only';
  return snap;
}

/** Sums placed incidents into counties; the customers of the others are reported in one line. */
function placeIncidents(incidents: Incident[], counties: Map<string, CountyCount>, unmatched: string[]): void {
  let lost = 0;
  let lostOut = 0;
  for (const i of incidents) {
    if (i.fips) {
      if (i.customers_out > 0) addCounty(counties, i.fips, i.customers_out, null);
    } else if (i.customers_out > 0) {
      lost += 1;
      lostOut += i.customers_out;
    }
  }
  if (lost) unmatched.push(`${lost} event(s) not placed in a county (${lostOut} customers out)`);
}
