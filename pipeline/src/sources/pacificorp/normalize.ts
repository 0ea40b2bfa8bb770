// PacifiCorp normalize: per state, the map file's headline (planned points included, as PacifiCorp counts them) is
// the customers out; the list file's county counts, planned and unplanned, give the counties (else the points summed
// by the county they lie in). A point whose count cannot be read is noted and left out; the headline stands.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { type AnswerTimes, DisplayTimes, remembered3, sortedCounties, newIncident } from '../checks.ts';
import { optHeadlineCount, recordCount } from '../unreadable.ts';
import { OutageIds } from '../outage-ids.ts';
import { pointAt } from '../point-feed.ts';
import { readRaw, type PacifiCorpList, type PacifiCorpPoint } from './schema.ts';
import { timeReader, wallText } from './times.ts';

export const isPlanned = (p: PacifiCorpPoint) => typeof p.icon === 'string' && /plan/i.test(p.icon);
function textOrNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

interface StateContext {
  state: string;
  ids: OutageIds;
  times: AnswerTimes;
}

/** ETRs and report times, remembered across polls. */
const times = new DisplayTimes(60 * 86_400_000); // the reader's window (times.ts)

/**
 * The feed has no outage ids: state, point and reported time ("03/02 12:24 PM") stay put while an outage lasts.
 * Remembered by its parts across polls, per state: formatting and hashing a new text per point cost a fifth of
 * JSON.parse.
 */
const idsByState = new Map<string, (lat: number | null, lon: number | null, reported: string) => string>();
function idOf(state: string, lat: number | null, lon: number | null, reported: string): string {
  let ids = idsByState.get(state);
  if (!ids) idsByState.set(state, (ids = remembered3((a, b, r) => `${state}:${a},${b}@${wallText(r) ?? r}`)));
  return ids(lat, lon, reported);
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const data = readRaw(raw);
  const refMs = data.captured_at ? Date.parse(data.captured_at) : NaN;
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const ids = new OutageIds();
  let total = 0;
  let plannedOut = 0;
  let placed = false;
  for (const entry of data.states) {
    const state = entry.state.toUpperCase();
    const zone = zoneFor([state], source.options.time_zone);
    const read = timeReader(zone, Number.isNaN(refMs) ? null : refMs);
    const ctx: StateContext = { state, ids, times: times.of(zone, refMs, read) };
    const fromList = Array.isArray(entry.list?.counties);
    let sum = 0;
    const lost = { n: 0, out: 0 };
    for (const [i, p] of (entry.map.outages ?? []).entries()) {
      const out = recordCount(p.custOut, 'custOut', `${state} point ${i}`, snap.unreadable);
      if (out === null) continue;
      sum += out;
      if (isPlanned(p)) plannedOut += out;
      const incident = incidentOf(p, out, ctx);
      snap.incidents.push(incident);
      placed ||= incident.fips !== null;
      if (fromList || out === 0) continue;
      if (incident.fips) addCounty(counties, incident.fips, out, null);
      else {
        lost.n += 1;
        lost.out += out;
      }
    }
    if (lost.n) snap.unmatched.push(`${lost.n} ${state} point(s) outside every US county (${lost.out} customers out)`);
    if (fromList) listCounties(entry.list as PacifiCorpList, state, counties, snap);
    placed ||= fromList;
    // totalState counts planned points too (it equals the sum of every point's custOut); without it the points' sum
    // stands in, and only when every point could be read.
    const headline = optHeadlineCount(entry.map.totalState, 'totalState', `PacifiCorp map${state}.json`);
    total += headline ?? sum;
  }
  snap.counties = sortedCounties(counties);
  snap.customers_out = total;
  snap.planned_out = plannedOut;
  // Points with coordinates or a county list make the feed county-grade; otherwise it still has a headline.
  snap.basis = placed || snap.incidents.length === 0 ? 'county' : 'utility_total';
  return snap;
}

function incidentOf(p: PacifiCorpPoint, out: number, ctx: StateContext): Incident {
  const lat = p.latitude ?? null;
  const lon = p.longitude ?? null;
  const point = pointAt(lat, lon);
  return newIncident({
    id: ctx.ids.made(idOf(ctx.state, lat, lon, p.reported ?? '')),
    fips: point ? locatePoint(point.lon, point.lat) : null,
    customers_out: out,
    etr: ctx.times.at(p.etr),
    crew_status: textOrNull(p.crewStatus),
    cause: textOrNull(p.cause),
    started_at: ctx.times.at(p.reported),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
    planned: isPlanned(p),
  });
}

/**
 * The list file's customers per county, planned and unplanned, matched in the file's own state; unknown names are
 * reported, a county whose counts cannot be read is noted and left out (the state's headline stands).
 */
function listCounties(list: PacifiCorpList, state: string, counties: Map<string, CountyCount>, snap: Snapshot): void {
  for (const c of list.counties ?? []) {
    const label = `${c.countyName} (${state})`;
    const unplanned = recordCount(c.custOutUnplan, 'custOutUnplan', label, snap.unreadable);
    // Older list files have no planned column: nothing planned there.
    const planned = c.custOutPlan === undefined ? 0 : recordCount(c.custOutPlan, 'custOutPlan', label, snap.unreadable);
    const fips = matchCounty(state, c.countyName);
    if (!fips) snap.unmatched.push(label);
    else if (unplanned !== null && planned !== null && unplanned + planned > 0)
      addCounty(counties, fips, unplanned + planned, null);
  }
}
