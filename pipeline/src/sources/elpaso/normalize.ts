// El Paso Electric normalize: customers out are published per ZIP code, outages as points without a count. A ZIP's
// customers go to the county its outage points lie in (TX and NM only); the points are incidents with their ETR.
// A count that cannot be read is never 0: its ZIP is left out and noted in `unreadable` beside the headline (without
// one the total is the ZIPs' sum, and the poll fails naming the field). A ZIP code that cannot be read (on a ZIP row,
// or on a placed outage point) is noted too: the customers it would place stay in no county.
import type { SourceDef } from '../source-def.ts';
import { addCounty, type CountyCount, type Snapshot } from '../snapshot.ts';
import { zoneFor } from '../local-time.ts';
import { countOf, newIncident, sortedCounties } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { readEtr } from '../pointlist/etr.ts';
import { addNotes, optHeadlineCount, recordCount, unreadableNote } from '../unreadable.ts';
import { readRaw, type ElPasoOutage, WHAT } from './schema.ts';

/** El Paso keeps Mountain time; Texas, the row's first state, would say Central. */
const DEFAULT_ZONE = 'America/Denver';

const textOf = (v: number | string | null | undefined): string =>
  v === null || v === undefined ? '' : String(v).trim();

/** A ZIP code as the answer gives it: five digits, as text or a number; null for anything else. */
function zipOf(v: number | string | null | undefined): string | null {
  const t = textOf(v);
  return /^\d{5}$/.test(t) ? t : null;
}

/** The county the outage's point lies in, when it is one of the row's states (TX, NM). */
function placeOf(o: ElPasoOutage, feed: PointFeed): string | null {
  const { latitude: lat, longitude: lon } = o;
  return typeof lat === 'number' && typeof lon === 'number' ? feed.county(pointAt(lat, lon)) : null;
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const zone = zoneFor(source.states, source.options.time_zone || DEFAULT_ZONE);
  const feed = new PointFeed(source);
  const { snap } = feed;
  // The counties each ZIP's outage points lie in.
  const zipCounties = new Map<string, Set<string>>();
  answer.outages.forEach((o, i) => {
    const fips = placeOf(o, feed);
    const zip = zipOf(o.zipcode);
    if (zip && fips) zipCounties.set(zip, (zipCounties.get(zip) ?? new Set()).add(fips));
    // A placed point whose ZIP cannot be read places nothing: said, not left to look like an unplaced ZIP.
    else if (fips) snap.unreadable.push(unreadableNote(`outage ${textOf(o.outageNo) || i}`, 'zipcode', o.zipcode));
    const id = feed.idOf(textOf(o.outageNo), zip ? `zip ${zip}` : 'outage');
    const point =
      typeof o.latitude === 'number' && typeof o.longitude === 'number' && !(o.latitude === 0 && o.longitude === 0);
    feed.add(
      newIncident({
        id,
        fips,
        // The answer counts customers per ZIP, not per outage.
        customers_out: 0,
        etr: readEtr(o.etr, 'mdy', zone),
        crew_status: null,
        cause: null,
        started_at: null,
        lat: point ? (o.latitude ?? null) : null,
        lon: point ? (o.longitude ?? null) : null,
        city: null,
      }),
    );
  });
  const counties = new Map<string, CountyCount>();
  const lost = { zips: 0, out: 0 };
  const countNotes: string[] = [];
  let sum = 0;
  answer.zips.forEach((z, i) => {
    const label = `ZIP ${textOf(z.zipcode) || `row ${i}`}`;
    const out = recordCount(z.customersAffected, 'customersAffected', label, countNotes);
    if (out === null) return;
    sum += out;
    const zip = zipOf(z.zipcode);
    if (zip === null) {
      snap.unreadable.push(unreadableNote(`ZIP row ${i}`, 'zipcode', z.zipcode));
      return;
    }
    const places = zipCounties.get(zip);
    // One county for all the ZIP's placed points places it; none, or several counties, leaves it unplaced.
    const only = places?.size === 1 ? [...places][0] : null;
    if (only) addCounty(counties, only, out, null);
    else if (out > 0) {
      lost.zips += 1;
      lost.out += out;
    }
  });
  const headline = optHeadlineCount(answer.totalCustAffected, 'totalCustAffected', WHAT);
  addNotes(snap.unreadable, countNotes);
  if (lost.zips) snap.unmatched.push(`${lost.zips} ZIP code(s) not placed in a county (${lost.out} customers out)`);
  snap.counties = sortedCounties(counties);
  snap.customers_out = headline ?? sum;
  snap.customers_served = countOf(answer.totalActiveCustomers);
  snap.basis =
    counties.size > 0 || answer.zips.length === 0 ? 'county' : headline !== null ? 'utility_total' : 'outage_only';
  return snap;
}
