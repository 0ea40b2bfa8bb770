// Chugach Electric normalize: each incident is an outage placed in a county by its point (Chugach serves Anchorage,
// the Kenai Peninsula and Mat-Su: every one of its places is a point of the feed, no county is named); the sections
// are areas, placed by the place their name starts with (`Anchorage - Hillside`: Anchorage). Customers out and served
// are the sections' sums (the map's own breakdown of the system), else the incidents' sum. A count that cannot be
// read is never 0: an incident without one is left out and noted in `unreadable` beside the sections' total; a section
// without one (or an incident when there are no sections) fails the poll, as the total is that sum.
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { countOf, decimalOf, newIncident, placedCounties } from '../checks.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { addTowns, townTotals, type TownRow } from '../town-list.ts';
import { addNotes, recordCount } from '../unreadable.ts';
import { readRaw, type ChugachIncident, type ChugachSection } from './schema.ts';

const numberOf = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

/**
 * The section as a town row: its name, looked up by the part before ` - ` (the sections are named `Place - Part`);
 * null, noted in `notes`, when its customers out cannot be read.
 */
function sectionRow(s: ChugachSection, notes: string[]): TownRow | null {
  const out = recordCount(s.CUST_OUT, 'CUST_OUT', `section ${s.SECTIONMAP.trim()}`, notes);
  if (out === null) return null;
  return {
    name: s.SECTIONMAP.trim(),
    place: s.SECTIONMAP.split(' - ')[0],
    state: null,
    out,
    served: countOf(s.CUST_SERVED),
  };
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const { grids, incidents } = readRaw(raw);
  const feed = new PointFeed(source);
  const { snap } = feed;
  const zone = zoneFor(source.states, source.options.time_zone);
  (incidents.Items ?? []).forEach((i, k) => {
    const out = feed.count(i.CUSTOMERS_AFFECTED, 'CUSTOMERS_AFFECTED', `incident ${k}`);
    if (out !== null && out > 0) feed.add(incidentOf(i, out, feed, zone));
  });
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'incident');
  // The sections' sum is the total: one the sum would leave out makes it a figure Chugach never showed.
  const sectionNotes: string[] = [];
  const sections = (grids.Items ?? []).flatMap((s) => sectionRow(s, sectionNotes) ?? []);
  addNotes(snap.unreadable, sectionNotes);
  addTowns(snap, sections, source.states, false);
  const totals = townTotals(sections);
  snap.customers_out = sections.length ? totals.out : snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = totals.served;
  // Customers out that no outage point places (none listed, or none in a county) leave a bare total.
  snap.basis = snap.counties.length > 0 || snap.customers_out === 0 ? 'county' : 'utility_total';
  return snap;
}

function incidentOf(i: ChugachIncident, out: number, feed: PointFeed, zone: string): Incident {
  const point = pointAt(numberOf(i.LATITUDE), numberOf(i.LONGITUDE));
  return newIncident({
    // The feed gives an outage no id: its point is its identity (a second outage at one point is numbered).
    id: feed.id(point ? `${point.lat},${point.lon}` : 'incident'),
    fips: feed.county(point),
    customers_out: out,
    etr: parseLocal(i.EST_RESTORATION, zone, 0), // the text carries its year
    crew_status: i.OUTAGE_STATUS?.trim() || null,
    cause: null,
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
  });
}
