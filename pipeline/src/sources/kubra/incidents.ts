// Kubra cluster-layer records as incidents, and (for a deployment without a county report) the counties their
// points fall in.
import { locatePoint } from '../../geo/match.ts';
import { arrayAt, isObj, misfit, newIncident, optNumber, placedCounties } from '../checks.ts';
import { OutageIds } from '../outage-ids.ts';
import { toIso, type Incident, type Snapshot } from '../snapshot.ts';
import type { ClusterRecord } from './clusters.ts';
import { tallyRead, unreadableNote } from '../unreadable.ts';
import { recordOut } from './counts.ts';

/** The records fetch (or a recording) hands over, checked in place for what incidentOf reads. */
export function readClusters(v: unknown, what: string): ClusterRecord[] {
  const list = arrayAt(what, v, 'clusters');
  for (let i = 0; i < list.length; i++) {
    const r = list[i];
    if (!isObj(r)) misfit(what, 'clusters', i, '', 'object', r);
    if (!isObj(r.desc)) misfit(what, 'clusters', i, 'desc', 'object', r.desc);
    if (!optNumber(r.lat)) misfit(what, 'clusters', i, 'lat', 'number', r.lat);
    if (!optNumber(r.lon)) misfit(what, 'clusters', i, 'lon', 'number', r.lon);
  }
  return list as ClusterRecord[];
}

/** A cluster-layer `cause` or `crew_status`: text, or localised text ({"EN-US": …}) read in English when it has it. */
function text(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (!v || typeof v !== 'object') return null;
  const byLang = v as Record<string, string>;
  for (const k in byLang) if (/^en/i.test(k)) return byLang[k];
  for (const k in byLang) return byLang[k];
  return null;
}

/**
 * An outage's id: its inc_id, else its encoded point and start time (the key public Kubra scrapers use), which
 * stays the same poll after poll; a record's own `id` (`11-0`) only numbers it within its tile.
 */
function idOf(r: ClusterRecord, ids: OutageIds): string {
  return ids.idOf(r.desc.inc_id, `${r.geom?.p?.[0] ?? `${r.lat},${r.lon}`}-${r.desc.start_time ?? ''}`);
}

/** A cluster-layer record as an incident (the id made unique by incidentsOf), with its count. */
function incidentOf(r: ClusterRecord, id: string, out: number): Incident {
  return newIncident({
    id,
    fips: r.lat !== null && r.lon !== null ? locatePoint(r.lon, r.lat) : null,
    customers_out: out,
    etr: toIso(r.desc.etr),
    crew_status: text(r.desc.crew_status),
    cause: text(r.desc.cause),
    started_at: toIso(r.desc.start_time),
    lat: r.lat,
    lon: r.lon,
    city: null,
  });
}

/**
 * Every record as an incident, in id order: an inc_id listed twice (two tiles) is one outage; two outages at one point
 * since one time get `#2`, `#3` … A record whose count cannot be read (not masked, no `cust_a.val` count) is no
 * incident: it is noted in `unreadable`, never 0.
 */
export function incidentsOf(records: ClusterRecord[], unreadable: string[]): Incident[] {
  const ids = new OutageIds();
  const out: Incident[] = [];
  for (const r of records) {
    const id = idOf(r, ids);
    const count = recordOut(r.desc.cust_a, r.desc.n_out);
    const cust = r.desc.cust_a;
    const [field, v] = cust && typeof cust === 'object' ? ['cust_a.val', cust.val] : ['cust_a', cust];
    // Tallied as one field, masked or not: a layer none of whose records can be read fails the poll.
    tallyRead(unreadable, 'cluster cust_a', count === null ? unreadableNote(`outage ${id}`, field, v) : null);
    const incident = count === null ? null : ids.once(incidentOf(r, id, count));
    if (incident) out.push(incident);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Counties from the incidents' points (`options.counties: "clusters"`): customers out summed per county, served
 * unknown; an outage outside every county stays in customers_out and is reported in `unmatched`.
 */
export function countPoints(snap: Snapshot): void {
  snap.counties = placedCounties(snap.incidents, snap.unmatched, 'outage');
  snap.customers_out = snap.incidents.reduce((s, i) => s + i.customers_out, 0);
}
