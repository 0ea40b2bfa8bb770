// WEC Energy Group OutageEventJSON (We Energies, WPS): one event per outage, its customers split into slices
// by city/county/ZIP/region, each slice carrying that area's customers served.
import { arrayAt, fail, misfit, objectAt, optNumOrText, optNumber, optText } from '../checks.ts';

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

function checkSlices(slices: unknown, at: string): void {
  const list = arrayAt(WHAT, slices, at);
  for (let j = 0; j < list.length; j++) {
    const s = objectAt(WHAT, list[j], at, j);
    if (!optNumOrText(s.AffectedCusts)) misfit(WHAT, at, j, 'AffectedCusts', 'number or string', s.AffectedCusts);
    if (!optNumOrText(s.CountyCusts)) misfit(WHAT, at, j, 'CountyCusts', 'number or string', s.CountyCusts);
    if (!optText(s.County)) misfit(WHAT, at, j, 'County', 'string', s.County);
    if (!optText(s.City)) misfit(WHAT, at, j, 'City', 'string', s.City);
  }
}

/**
 * The answer, checked in place (no copy): only the fields normalize reads, each of the type it reads. A hand check
 * rather than zod, which copied every event and slice (with their unread keys) and cost more than JSON.parse.
 */
export function readRaw(raw: unknown): WecData {
  const root = objectAt(WHAT, raw, '');
  if (!optText(root.captured_at)) fail(WHAT, 'captured_at', 'string', root.captured_at);
  const events = arrayAt(WHAT, root.events, 'events');
  for (let i = 0; i < events.length; i++) {
    const e = objectAt(WHAT, events[i], 'events', i);
    if (!optNumber(e.Latitude)) misfit(WHAT, 'events', i, 'Latitude', 'number', e.Latitude);
    if (!optNumber(e.Longitude)) misfit(WHAT, 'events', i, 'Longitude', 'number', e.Longitude);
    if (!optText(e.OffTime)) misfit(WHAT, 'events', i, 'OffTime', 'string', e.OffTime);
    if (!optText(e.ETR)) misfit(WHAT, 'events', i, 'ETR', 'string', e.ETR);
    if (!optText(e.CrewStatus)) misfit(WHAT, 'events', i, 'CrewStatus', 'string', e.CrewStatus);
    if (!optText(e.Cause)) misfit(WHAT, 'events', i, 'Cause', 'string', e.Cause);
    if (e.Slices !== null && e.Slices !== undefined) checkSlices(e.Slices, `events.${i}.Slices`);
  }
  return raw as unknown as WecData;
}

export interface WecRaw {
  captured_at: string | null;
  events: unknown;
}
