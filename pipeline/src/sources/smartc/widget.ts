// WidgetAPI normalize (MG&E): each listed outage is a point placed in its county; the answer's served total is the
// utility's customers served. The request asks for unplanned outages only (isPlannedOutage=0).
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, toCount, type CountyCount, type Snapshot } from '../snapshot.ts';
import { parseUpstream } from '../parse.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { zoneFor } from '../local-time.ts';
import { OutageIds } from '../outage-ids.ts';
import { widgetSchema } from './schema.ts';
import { coordinate, localIso } from './places.ts';
import { newIncident } from '../checks.ts';
import { recordCount } from '../unreadable.ts';

export function normalizeWidget(raw: unknown, source: SourceDef): Snapshot {
  const data = parseUpstream(widgetSchema, raw, 'SmartC WidgetAPI PreloginGetOutageData answer').result.Data;
  const zone = zoneFor(source.states, source.options.time_zone);
  const atlas = loadAtlas();
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const ids = new OutageIds();
  const lost = { n: 0, out: 0 };
  let total = 0;
  let placed = false;
  for (const [i, o] of (data.listOutageResultSetTwo ?? []).entries()) {
    const out = recordCount(o.CustomerAffected, 'CustomerAffected', `outage ${i}`, snap.unreadable);
    if (out === null) continue;
    const lat = coordinate(o.Latitude, 90);
    const lon = coordinate(o.Longitude, 180);
    const point = lat !== null && lon !== null;
    const fips = point ? (atlas.locate(lon, lat) ?? null) : null;
    placed ||= fips !== null;
    // The list carries no outage id: the point is the id (with #2, #3 … when two outages share it).
    const id = ids.made(`${o.Latitude},${o.Longitude}`);
    snap.incidents.push(
      newIncident({
        id,
        fips,
        customers_out: out,
        etr: localIso(o.ETR, zone),
        crew_status: null,
        cause: null,
        started_at: null,
        lat: point ? lat : null,
        lon: point ? lon : null,
        city: o.City?.trim() || null,
      }),
    );
    total += out;
    if (fips) {
      if (out > 0) addCounty(counties, fips, out, null);
    } else if (out > 0) {
      lost.n += 1;
      lost.out += out;
    }
  }
  if (lost.n) snap.unmatched.push(`${lost.n} outage(s) without a point in a US county (${lost.out} customers out)`);
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = total;
  snap.customers_served = toCount(data.listTotalOutage?.[0]?.TotalCusomerServed);
  snap.basis = placed || snap.incidents.length === 0 ? 'county' : 'outage_only';
  return snap;
}
