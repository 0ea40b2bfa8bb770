// Milsoft outages.json records → incidents: placed by point, planned outages set aside, restored ones dropped.
import { toCount, toIso, type Incident } from '../snapshot.ts';
import { loadAtlas } from '../../geo/counties.ts';
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

export function readOutages(list: MilsoftOutage[]): ReadOutages {
  const atlas = loadAtlas();
  const result: ReadOutages = { incidents: [], plannedOut: 0, unmatched: [] };
  list.forEach((o, n) => {
    const id = String(o.outageRecID ?? o.outageName ?? `#${n}`);
    const out = toCount(o.customersOutNow);
    if (out === null) {
      result.unmatched.push(`outage ${id} (unreadable count)`);
      return;
    }
    // `outageEndTime` is not read: the Flint capture has an ended outage still counting 70 out, and so does the summary.
    if (out === 0) return;
    if (o.isPlanned === true) {
      result.plannedOut += out;
      return;
    }
    const lat = o.outagePoint?.lat ?? null;
    const lon = o.outagePoint?.lng ?? null;
    const fips = lat !== null && lon !== null ? (atlas.locate(lon, lat) ?? null) : null;
    if (!fips) result.unmatched.push(lat === null ? `outage ${id} (no point)` : `outage ${id} at ${lat},${lon}`);
    result.incidents.push({
      id,
      fips,
      customers_out: out,
      etr: toIso(o.estimatedTimeOfRestoral),
      crew_status: crewStatus(o),
      cause: o.cause || null,
      started_at: toIso(o.outageStartTime),
      lat,
      lon,
      city: null,
    });
  });
  return result;
}
