// ServiceAPI normalize (OPPD): events are incidents placed by point (else by their county name); the county list
// view gives the counties when fetched, the account count gives customers served.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, toCount, type CountyCount, type Incident, type Snapshot } from '../snapshot.ts';
import { parseUpstream } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import { locatePoint } from '../../geo/match.ts';
import { zoneFor } from '../local-time.ts';
import { serviceSchema, type ServiceEvent, type ServiceRaw } from './schema.ts';
import { coordinate, localIso, matchIn, offsetIso } from './places.ts';
import { newIncident } from '../checks.ts';
import { OutageIds } from '../outage-ids.ts';
import { recordCount } from '../unreadable.ts';

const textOrNull = (v: string | null | undefined) => (v?.trim() && v.trim() !== 'NA' ? v.trim() : null);

/** An answer whose envelope says error is a failed poll, not "no outages". */
function checkStatus(
  name: string,
  answer: { status?: { error?: boolean | null; message?: string | null } | null } | null | undefined,
): void {
  if (answer?.status?.error)
    throw new SourceError(
      'bad_body',
      `SmartC ServiceAPI ${name} answered an error: ${answer.status.message ?? '(no message)'}; check the url in the registry`,
    );
}

export function normalizeService(raw: unknown, source: SourceDef): Snapshot {
  const data = parseUpstream(serviceSchema, raw, 'SmartC ServiceAPI answers');
  checkStatus('alloutages', data.events);
  checkStatus('AllOutagesListView', data.counties);
  checkStatus('Account/Count', data.accounts);
  const zone = zoneFor(source.states, source.options.time_zone);
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const list = data.counties?.data ?? null;
  const unplaced = { n: 0, out: 0 };
  const ids = new OutageIds(); // an event listed twice is one outage
  for (const e of data.events.data ?? []) {
    const out = recordCount(e.affectedCount, 'affectedCount', `event ${e.incidentId}`, snap.unreadable);
    const incident =
      out === null ? null : ids.once(incidentOf(e, ids.idOf(e.incidentId, 'event'), out, source, zone, snap));
    if (incident) snap.incidents.push(incident);
  }
  for (const incident of snap.incidents) {
    if (list || incident.customers_out === 0) continue;
    if (incident.fips) addCounty(counties, incident.fips, incident.customers_out, null);
    else {
      unplaced.n += 1;
      unplaced.out += incident.customers_out;
    }
  }
  if (unplaced.n) snap.unmatched.push(`${unplaced.n} event(s) not placed in a county (${unplaced.out} customers out)`);
  if (list) listCounties(list, source.states, counties, snap);
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.customers_served = toCount(data.accounts?.data?.count);
  const placed = list !== null || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips !== null);
  snap.basis = placed ? 'county' : 'outage_only';
  return snap;
}

function incidentOf(
  e: ServiceEvent,
  id: string,
  out: number,
  { states }: SourceDef,
  zone: string,
  { unmatched }: Snapshot,
): Incident {
  const lat = coordinate(e.lat, 90);
  const lon = coordinate(e.lon, 180);
  const point = lat !== null && lon !== null;
  let fips = point ? locatePoint(lon, lat) : null;
  // `location` is the county name (locationType 1); it places an event whose point is missing or offshore.
  const name = e.location?.trim();
  if (!fips && name) {
    fips = matchIn(states, name) ?? null;
    if (!fips) unmatched.push(name);
  }
  return newIncident({
    id,
    fips,
    customers_out: out,
    // restorationTime when it carries a zone; else OutageAttribute1, the local ETR text the map shows ("Wed, 10/07/2026, 11:00 AM").
    etr: offsetIso(e.restorationTime) ?? localIso(e.extension?.OutageAttribute1, zone),
    // startTime ("10/07/2026 08:52:53") states no zone, and the same API prints lastUpdateTime in UTC: not guessed.
    crew_status: textOrNull(e.crewStatus),
    cause: null,
    started_at: null,
    lat: point ? lat : null,
    lon: point ? lon : null,
    city: null,
  });
}

/** The county list view's rows, matched in the row's states; names that match no county are reported. */
function listCounties(
  rows: NonNullable<NonNullable<ServiceRaw['counties']>['data']>,
  states: string[],
  counties: Map<string, CountyCount>,
  snap: Snapshot,
): void {
  for (const r of rows) {
    const fips = matchIn(states, r.location);
    // A county row without a readable count is left out of the counties and noted; the events' total stands.
    const out = recordCount(r.affectedCount, 'county list affectedCount', `county ${r.location}`, snap.unreadable);
    if (!fips) snap.unmatched.push(r.location);
    else if (out !== null && out > 0) addCounty(counties, fips, out, null);
  }
}
