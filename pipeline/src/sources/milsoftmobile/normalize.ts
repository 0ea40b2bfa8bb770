// Milsoft mobile service normalize: GetAllCounties' counties (out and served, by name in the row's states; a name that
// is a county in several of them is decided by the county's own outline), GetAllOutages' outages as incidents placed
// by their point. The headline is GetAllOutages' TotalCustAffected and TotalCustomers, else the counties' sums.
import type { SourceDef } from '../source-def.ts';
import type { CountyCount, Incident, Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { cleanText, noCleaning, TEXT_CAPS } from '../clean-text.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { CountyTally, countOf, decimalOf, newIncident, placedCounties, servedSum } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { centreOf } from '../snopud/normalize.ts';
import { readRaw, type MobileCounty, type MobileOutage } from './schema.ts';
import { optHeadlineCount, recordCount } from '../unreadable.ts';

const NAME = { cap: TEXT_CAPS.name, multiline: false };
const sum = (xs: Array<{ customers_out: number }>) => xs.reduce((s, x) => s + x.customers_out, 0);

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const feed = new PointFeed(source);
  const { snap } = feed;
  const zone = zoneFor(source.states, source.options.time_zone);
  for (const [i, o] of (answer.outages?.list ?? []).entries()) {
    const field = o.CutomersAffected === undefined ? 'CustomersAffected' : 'CutomersAffected';
    const out = feed.count(o.CutomersAffected ?? o.CustomersAffected, field, `outage ${o.CaseNumber?.trim() || i}`);
    if (out) feed.add(incidentOf(o, out, feed, zone));
  }
  // A county list is the service's own breakdown; without one (a recorded GetAllOutages alone) the points are summed.
  snap.counties = answer.counties
    ? countiesOf(answer.counties, source.states, snap)
    : placedCounties(snap.incidents, snap.unmatched, 'outage');
  const totalOut = optHeadlineCount(answer.outages?.totalOut, 'TotalCustAffected', 'Milsoft GetAllOutages');
  const totalServed = countOf(answer.outages?.totalServed);
  snap.customers_out = totalOut ?? (answer.counties ? sum(snap.counties) : sum(snap.incidents));
  snap.customers_served = totalServed ?? (answer.counties ? servedSum(snap.counties) : null);
  const placed = snap.counties.length > 0 || (answer.counties !== null && answer.counties.length === 0);
  snap.basis = placed || snap.incidents.length === 0 ? 'county' : totalOut !== null ? 'utility_total' : 'outage_only';
  return snap;
}

/** The counties of the list with anyone served or out (0 and 0 is an outline the map draws empty), summed by FIPS. */
function countiesOf(list: MobileCounty[], states: string[], snap: Snapshot): CountyCount[] {
  const tally = new CountyTally();
  for (const c of list) {
    const out = recordCount(c.CustomersAffected, 'CustomersAffected', `county ${c.CountyName}`, snap.unreadable);
    const served = countOf(c.CustomersServed);
    if (out === null || (out === 0 && !served)) continue;
    const fips = countyOf(c, states);
    if (fips) tally.add(fips, out, served);
    else snap.unmatched.push(`${c.CountyName} (${out} customers out)`);
  }
  return tally.sorted();
}

/** The county the name is in the row's states; a name found in several (Cherokee: SC and NC) by its outline. */
function countyOf(c: MobileCounty, states: string[]): string | null {
  const name = cleanText(c.CountyName, NAME, noCleaning());
  const named = states.map((s) => matchCounty(s, name)).filter((f): f is string => f !== undefined);
  if (named.length <= 1) return named[0] ?? null;
  const centre = centreOf((c.Shape ?? '').replaceAll(';', ' '));
  const at = centre ? locatePoint(centre[0], centre[1]) : null;
  return named.find((f) => f === at) ?? named.find((f) => f.slice(0, 2) === at?.slice(0, 2)) ?? named[0];
}

const numberOf = (v: string | undefined): number | null => (v?.trim() ? decimalOf(v.trim()) : null);

function incidentOf(o: MobileOutage, out: number, feed: PointFeed, zone: string): Incident {
  const point = pointAt(numberOf(o.Y), numberOf(o.X));
  // the case number is the outage's own; a device's name or a point only locates one
  const made = o.ElementName?.trim() || (point ? `${point.lat},${point.lon}` : 'outage');
  return newIncident({
    id: feed.idOf(o.CaseNumber, made),
    fips: feed.county(point),
    customers_out: out,
    // Both texts carry their year; `AssignedTo` (a crew member's name) is never read.
    etr: parseLocal(o.RestorationTime, zone, 0),
    crew_status: o.CaseStatus?.trim() || (/^true$/i.test(o.Assigned ?? '') ? 'Crew assigned' : null),
    cause: o.Cause?.trim() || null,
    started_at: parseLocal(o.OutageTime, zone, 0),
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
