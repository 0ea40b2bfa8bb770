// WEC Energy Group OutageEventJSON (We Energies, WPS): one event per outage, its customers split into slices
// by city/county/ZIP/region, each slice carrying that area's customers served.
import { SourceError } from '../../errors.ts';

type Count = number | string | null | undefined;
type Text = string | null | undefined;

/** Only the fields normalize reads; Zip, ZipCusts, Region, RegionCusts, CityCusts, LastUpdated pass through. */
export interface WecSlice {
  AffectedCusts?: Count;
  County?: Text;
  CountyCusts?: Count;
  City?: Text;
  [k: string]: unknown;
}

export interface WecEvent {
  Latitude?: number | null;
  Longitude?: number | null;
  OffTime?: Text;
  ETR?: Text;
  CrewStatus?: Text;
  Cause?: Text;
  Slices?: WecSlice[] | null;
  [k: string]: unknown;
}

export interface WecData {
  captured_at?: string | null;
  events: WecEvent[];
}

const WHAT = 'WEC OutageEventJSON answer';
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
function fail(path: string, want: string, v: unknown): never {
  throw new SourceError('schema', `${WHAT} has an unexpected shape: ${path}: expected ${want}, got ${kind(v)}`);
}
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nullish = (v: unknown) => v === null || v === undefined;
function text(o: Record<string, unknown>, k: string, path: string): void {
  if (typeof o[k] !== 'string' && !nullish(o[k])) fail(`${path}.${k}`, 'string', o[k]);
}
function count(o: Record<string, unknown>, k: string, path: string): void {
  const v = o[k];
  if (typeof v !== 'number' && typeof v !== 'string' && !nullish(v)) fail(`${path}.${k}`, 'number or string', v);
}

/**
 * The answer, checked in place (no copy): only the fields normalize reads, each of the type it reads. A hand check
 * rather than zod, which copied every event and slice (with their unread keys) and cost more than JSON.parse.
 */
export function readRaw(raw: unknown): WecData {
  if (!isObj(raw)) fail('(root)', 'object', raw);
  if (typeof raw.captured_at !== 'string' && !nullish(raw.captured_at)) fail('captured_at', 'string', raw.captured_at);
  const events = raw.events;
  if (!Array.isArray(events)) fail('events', 'array', events);
  for (let i = 0; i < events.length; i++) {
    const e: unknown = events[i];
    const at = `events.${i}`;
    if (!isObj(e)) fail(at, 'object', e);
    if (typeof e.Latitude !== 'number' && !nullish(e.Latitude)) fail(`${at}.Latitude`, 'number', e.Latitude);
    if (typeof e.Longitude !== 'number' && !nullish(e.Longitude)) fail(`${at}.Longitude`, 'number', e.Longitude);
    text(e, 'OffTime', at);
    text(e, 'ETR', at);
    text(e, 'CrewStatus', at);
    text(e, 'Cause', at);
    const slices = e.Slices;
    if (nullish(slices)) continue;
    if (!Array.isArray(slices)) fail(`${at}.Slices`, 'array', slices);
    for (let j = 0; j < slices.length; j++) {
      const s: unknown = slices[j];
      const sat = `${at}.Slices.${j}`;
      if (!isObj(s)) fail(sat, 'object', s);
      count(s, 'AffectedCusts', sat);
      count(s, 'CountyCusts', sat);
      text(s, 'County', sat);
      text(s, 'City', sat);
    }
  }
  return raw as unknown as WecData;
}

export interface WecRaw {
  captured_at: string | null;
  events: unknown;
}
