// Milsoft outages.json records → incidents: placed by point, planned outages in progress counted and flagged, planned
// ones not yet started (by the summary's time) and restored ones dropped.
import { toIso, type Incident } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { newIncident, remembered } from '../checks.ts';
import { recordCount } from '../unreadable.ts';
import type { MilsoftOutage } from './schema.ts';

export interface ReadOutages {
  /** outages with customers out now, planned work in progress among them (`planned: true`) */
  incidents: Incident[];
  /** customers out in planned outages in progress: counted in incidents, as the utility's headline counts them */
  plannedOut: number;
  unmatched: string[];
  /** outages whose `customersOutNow` cannot be read (noted, never 0) */
  unreadable: string[];
}

/** Crew status as published: the work status text when set, else the crew flag. */
function crewStatus(o: MilsoftOutage): string | null {
  if (o.outageWorkStatus) return o.outageWorkStatus;
  return o.crewAssigned === true ? 'Crew assigned' : null;
}

/** Start times and ETRs (ISO text with an offset) repeat poll after poll; reading one costs more than its share of
 * JSON.parse. */
const isoOf = remembered((text: string) => toIso(text));
const timeOf = (text: string | null | undefined): string | null => (text ? isoOf(text) : null);

/**
 * `refMs` is the answer's own time (the summary's `updateTime`), NaN when unknown: a planned outage whose start is
 * later has not begun, so it is left out; without both times a planned outage is counted.
 */
export function readOutages(list: MilsoftOutage[], refMs = Number.NaN): ReadOutages {
  const result: ReadOutages = { incidents: [], plannedOut: 0, unmatched: [], unreadable: [] };
  for (let n = 0; n < list.length; n++) {
    const o = list[n];
    const id = String(o.outageRecID ?? o.outageName ?? `#${n}`);
    const planned = o.isPlanned === true;
    const started = timeOf(o.outageStartTime);
    if (planned && started !== null && Date.parse(started) > refMs) continue; // announced, not begun
    const out = recordCount(o.customersOutNow, 'customersOutNow', `outage ${id}`, result.unreadable);
    if (out === null) continue;
    // `outageEndTime` is not read: the Flint capture has an ended outage still counting 70 out, and so does the summary.
    if (out === 0) continue;
    // Planned work in progress leaves customers without power: counted, as the summary's headline counts it, flagged.
    if (planned) result.plannedOut += out;
    const lat = o.outagePoint?.lat ?? null;
    const lon = o.outagePoint?.lng ?? null;
    const fips = lat !== null && lon !== null ? locatePoint(lon, lat) : null;
    if (!fips) result.unmatched.push(lat === null ? `outage ${id} (no point)` : `outage ${id} at ${lat},${lon}`);
    result.incidents.push(
      newIncident({
        id,
        fips,
        customers_out: out,
        etr: timeOf(o.estimatedTimeOfRestoral),
        crew_status: crewStatus(o),
        cause: o.cause || null,
        started_at: started,
        lat,
        lon,
        city: null,
        planned,
      }),
    );
  }
  return result;
}
