// DataCapable/UtiliSocial v2 map answers: `map/events` (a flat list) and `map/events/count?types=COUNTY`, checked by
// hand in place for only the fields normalize reads (zod copied every event and cost more than JSON.parse).
import { arrayAt, isObj, misfit, numOrText, objectAt, optArray, optNumOrText, optNumber, optText } from '../checks.ts';

type Count = number | string | null | undefined;
type Text = string | null | undefined;

/** An event, as far as normalize reads it. */
export interface DataCapableEvent {
  id: number | string;
  numPeople?: Count;
  /** epoch ms (a digit string in some answers, as `stats.lastUpdatedTime` is) */
  etrTime?: Count;
  startTime?: Count;
  latitude?: number | null;
  longitude?: number | null;
  status?: Text;
  type?: Text;
  title?: Text;
  cause?: Text;
  city?: Text;
  additionalProperties?: Array<{ property: string; value?: unknown }> | null;
}

/** One row of the count answer; `type` is COUNTY, or ZIP/MUNICIPALITY when several types were asked for. */
export interface CountRow {
  name: string;
  type?: Text;
  customersAffected?: Count;
  customersServed?: Count;
}

/** What fetch returns: the events list, and the county count answer when options.county_counts asks for it. */
export interface DataCapableRaw {
  events: unknown;
  counties?: unknown;
}

export const WHAT = 'DataCapable map/events answer';
const isProperties = (v: unknown): boolean =>
  optArray(v) && (!Array.isArray(v) || v.every((p) => isObj(p) && typeof p.property === 'string'));

function checkEvent(e: unknown, i: number): void {
  const at = 'events';
  if (!isObj(e)) misfit(WHAT, at, i, '', 'object', e);
  if (!numOrText(e.id)) misfit(WHAT, at, i, 'id', 'number or string', e.id);
  if (!optNumOrText(e.numPeople)) misfit(WHAT, at, i, 'numPeople', 'number or string', e.numPeople);
  if (!optNumOrText(e.etrTime)) misfit(WHAT, at, i, 'etrTime', 'number or string', e.etrTime);
  if (!optNumOrText(e.startTime)) misfit(WHAT, at, i, 'startTime', 'number or string', e.startTime);
  if (!optNumber(e.latitude)) misfit(WHAT, at, i, 'latitude', 'number', e.latitude);
  if (!optNumber(e.longitude)) misfit(WHAT, at, i, 'longitude', 'number', e.longitude);
  if (!optText(e.status)) misfit(WHAT, at, i, 'status', 'string', e.status);
  if (!optText(e.type)) misfit(WHAT, at, i, 'type', 'string', e.type);
  if (!optText(e.title)) misfit(WHAT, at, i, 'title', 'string', e.title);
  if (!optText(e.cause)) misfit(WHAT, at, i, 'cause', 'string', e.cause);
  if (!optText(e.city)) misfit(WHAT, at, i, 'city', 'string', e.city);
  if (!isProperties(e.additionalProperties))
    misfit(WHAT, at, i, 'additionalProperties', 'an array of {property: string, value}', e.additionalProperties);
}

function checkCountRow(r: unknown, i: number): void {
  const at = 'counties';
  if (!isObj(r)) misfit(WHAT, at, i, '', 'object', r);
  if (typeof r.name !== 'string') misfit(WHAT, at, i, 'name', 'string', r.name);
  if (!optText(r.type)) misfit(WHAT, at, i, 'type', 'string', r.type);
  if (!optNumOrText(r.customersAffected))
    misfit(WHAT, at, i, 'customersAffected', 'number or string', r.customersAffected);
  if (!optNumOrText(r.customersServed)) misfit(WHAT, at, i, 'customersServed', 'number or string', r.customersServed);
}

/** The answer (a bare events list, or {events, counties}), checked in place (no copy) for what normalize reads. */
export function readRaw(raw: unknown): { events: DataCapableEvent[]; counties: CountRow[] | null } {
  const root = Array.isArray(raw) ? { events: raw } : objectAt(WHAT, raw, '');
  const events = arrayAt(WHAT, root.events, 'events');
  for (let i = 0; i < events.length; i++) checkEvent(events[i], i);
  const counties = root.counties;
  if (counties === null || counties === undefined) return { events: events as DataCapableEvent[], counties: null };
  const rows = arrayAt(WHAT, counties, 'counties');
  for (let i = 0; i < rows.length; i++) checkCountRow(rows[i], i);
  return { events: events as DataCapableEvent[], counties: rows as CountRow[] };
}
