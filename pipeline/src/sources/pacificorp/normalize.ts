// PacifiCorp normalize: per state, the map file's headline less its planned points is the customers out; the
// list file's unplanned county counts give the counties (else the unplanned points summed by the county they lie in).
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { type AnswerTimes, DisplayTimes, countOf, remembered3, sortedCounties, newIncident } from '../checks.ts';
import { pointAt, takeId } from '../point-feed.ts';
import { readRaw, type PacifiCorpList, type PacifiCorpPoint } from './schema.ts';
import { timeReader, wallText } from './times.ts';

export const isPlanned = (p: PacifiCorpPoint) => typeof p.icon === 'string' && /plan/i.test(p.icon);
function textOrNull(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

interface StateContext {
  state: string;
  ids: Set<string>;
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
  const ids = new Set<string>();
  let total = 0;
  let placed = false;
  for (const entry of data.states) {
    const state = entry.state.toUpperCase();
    const zone = zoneFor([state], source.options.time_zone);
    const read = timeReader(zone, Number.isNaN(refMs) ? null : refMs);
    const ctx: StateContext = { state, ids, times: times.of(zone, refMs, read) };
    const fromList = Array.isArray(entry.list?.counties);
    let planned = 0;
    let unplanned = 0;
    const lost = { n: 0, out: 0 };
    for (const p of entry.map.outages ?? []) {
      const out = countOf(p.custOut) ?? 0;
      if (isPlanned(p)) {
        planned += out;
        continue;
      }
      unplanned += out;
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
    if (fromList) listCounties(entry.list as PacifiCorpList, state, counties, snap.unmatched);
    placed ||= fromList;
    // totalState counts planned points too (it equals the sum of every point's custOut).
    const headline = countOf(entry.map.totalState);
    total += headline === null ? unplanned : Math.max(0, headline - planned);
  }
  snap.counties = sortedCounties(counties);
  snap.customers_out = total;
  // Points with coordinates or a county list make the feed county-grade; otherwise it still has a headline.
  snap.basis = placed || snap.incidents.length === 0 ? 'county' : 'utility_total';
  return snap;
}

function incidentOf(p: PacifiCorpPoint, out: number, ctx: StateContext): Incident {
  const lat = p.latitude ?? null;
  const lon = p.longitude ?? null;
  const point = pointAt(lat, lon);
  return newIncident({
    id: takeId(ctx.ids, idOf(ctx.state, lat, lon, p.reported ?? '')),
    fips: point ? locatePoint(point.lon, point.lat) : null,
    customers_out: out,
    etr: ctx.times.at(p.etr),
    crew_status: textOrNull(p.crewStatus),
    cause: textOrNull(p.cause),
    started_at: ctx.times.at(p.reported),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}

/** The list file's unplanned customers per county, matched in the file's own state; unknown names are reported. */
function listCounties(
  list: PacifiCorpList,
  state: string,
  counties: Map<string, CountyCount>,
  unmatched: string[],
): void {
  for (const c of list.counties ?? []) {
    const out = countOf(c.custOutUnplan) ?? 0;
    const fips = matchCounty(state, c.countyName);
    if (!fips) unmatched.push(`${c.countyName} (${state})`);
    else if (out > 0) addCounty(counties, fips, out, null);
  }
}
