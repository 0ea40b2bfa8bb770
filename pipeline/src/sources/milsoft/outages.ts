// Milsoft outages.json records → incidents: placed by point, planned outages set aside, restored ones dropped.
import { toIso, type Incident } from '../snapshot.ts';
import { locatePoint } from '../../geo/match.ts';
import { newIncident, remembered } from '../checks.ts';
import { recordCount } from '../unreadable.ts';
import type { MilsoftOutage } from './schema.ts';

export interface ReadOutages {
  /** unplanned outages with customers out now */
  incidents: Incident[];
  /** customers out in planned outages: not unplanned customers out, so kept out of incidents and counts */
  plannedOut: number;
  /** planned outages whose count cannot be read: whether planned customers are out is then unknown */
  plannedUnread: number;
  unmatched: string[];
  /** outages whose `customersOutNow` cannot be read (noted, never 0); `unplannedUnread` of them unplanned */
  unreadable: string[];
  unplannedUnread: number;
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
  const result: ReadOutages = {
    incidents: [],
    plannedOut: 0,
    plannedUnread: 0,
    unmatched: [],
    unreadable: [],
    unplannedUnread: 0,
  };
  for (let n = 0; n < list.length; n++) {
    const o = list[n];
    const id = String(o.outageRecID ?? o.outageName ?? `#${n}`);
    const out = recordCount(o.customersOutNow, 'customersOutNow', `outage ${id}`, result.unreadable);
    if (out === null) {
      if (o.isPlanned === true) result.plannedUnread += 1;
      else result.unplannedUnread += 1;
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
