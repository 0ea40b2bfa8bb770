// Milsoft outages.json records → incidents: placed by point, planned outages set aside, restored ones dropped.
import { toIso, type Incident } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { countOf, newIncident, remembered } from '../checks.ts';
import type { MilsoftOutage } from './schema.ts';

export interface ReadOutages {
  /** unplanned outages with customers out now */
  incidents: Incident[];
  /** customers out in planned outages: not unplanned customers out, so kept out of incidents and counts */
  plannedOut: number;
  unmatched: string[];
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

export function readOutages(list: MilsoftOutage[]): ReadOutages {
  const result: ReadOutages = { incidents: [], plannedOut: 0, unmatched: [] };
  for (let n = 0; n < list.length; n++) {
    const o = list[n];
    const id = String(o.outageRecID ?? o.outageName ?? `#${n}`);
    const out = countOf(o.customersOutNow);
    if (out === null) {
      result.unmatched.push(`outage ${id} (unreadable count)`);
      continue;
    }
    // `outageEndTime` is not read: the Flint capture has an ended outage still counting 70 out, and so does the summary.
    if (out === 0) continue;
    if (o.isPlanned === true) {
      result.plannedOut += out;
      continue;
    }
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
        started_at: timeOf(o.outageStartTime),
        lat,
        lon,
        city: null,
      }),
    );
  }
  return result;
}
