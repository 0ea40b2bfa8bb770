// Milsoft Web Outage Viewer upstream shapes: data/outageSummary.json, data/boundaries.json, data/outages.json. Checked
// by hand in place for only the fields normalize reads: zod copied every record, and on a storm-sized outage list
// validation cost more than JSON.parse.
import { arrayAt, isObj, misfit, numOrText, objectAt, optBoolean, optNumOrText, optText } from '../checks.ts';

/** Counts are numbers in every capture seen; comma strings are tolerated and read with toCount. */
type Count = number | string | null | undefined;
type Text = string | null | undefined;

/** The headline the viewer's banner shows; read only when the site serves it. */
export interface MilsoftSummary {
  customersOutNow?: Count;
  customersServed?: Count;
  /** the summary's own time, ISO with an offset (`2026-10-10T06:44:20.6116666-04:00`); read only as a string */
  updateTime?: unknown;
}

/** boundaries.json: one group per boundary layer (counties, substations, districts …). */
export interface BoundaryGroup {
  name?: Text;
  nameField?: Text;
  boundaries: Array<{
    name: string | number;
    customersOutNow?: Count;
    customersAffected?: Count;
    customersServed?: Count;
  }>;
}

/** outages.json: one record per device outage, placed by its point. */
export interface MilsoftOutage {
  outageRecID?: string | number | null;
  outageName?: Text;
  outagePoint?: { lat: number; lng: number } | null;
  outageStartTime?: Text;
  estimatedTimeOfRestoral?: Text;
  cause?: Text;
  crewAssigned?: boolean | null;
  outageWorkStatus?: Text;
  isPlanned?: boolean | null;
  customersOutNow?: Count;
}

/** What fetch returns: the data file under its own name, plus the summary (null when the site has none). */
export type MilsoftRaw = { summary: unknown } & ({ boundaries: unknown } | { outages: unknown });

/** The summary, or null when it is not the summary shape (it is best-effort: never a failed poll). */
export function readSummary(raw: unknown): MilsoftSummary | null {
  return isObj(raw) && optNumOrText(raw.customersOutNow) && optNumOrText(raw.customersServed) ? raw : null;
}

/** boundaries.json, checked in place. */
export function readBoundaries(raw: unknown): BoundaryGroup[] {
  const what = 'Milsoft boundaries.json';
  const groups = arrayAt(what, raw, '');
  for (let g = 0; g < groups.length; g++) {
    const group = objectAt(what, groups[g], '', g);
    if (!optText(group.name)) misfit(what, '', g, 'name', 'string', group.name);
    if (!optText(group.nameField)) misfit(what, '', g, 'nameField', 'string', group.nameField);
    const at = `${g}.boundaries`;
    const list = arrayAt(what, group.boundaries, at);
    for (let i = 0; i < list.length; i++) {
      const b = objectAt(what, list[i], at, i);
      if (!numOrText(b.name)) misfit(what, at, i, 'name', 'number or string', b.name);
      if (!optNumOrText(b.customersOutNow))
        misfit(what, at, i, 'customersOutNow', 'number or string', b.customersOutNow);
      if (!optNumOrText(b.customersAffected))
        misfit(what, at, i, 'customersAffected', 'number or string', b.customersAffected);
      if (!optNumOrText(b.customersServed))
        misfit(what, at, i, 'customersServed', 'number or string', b.customersServed);
    }
  }
  return groups as BoundaryGroup[];
}

const isPoint = (v: unknown): boolean =>
  v === null || v === undefined || (isObj(v) && typeof v.lat === 'number' && typeof v.lng === 'number');

/** outages.json, checked in place. */
export function readOutagesFile(raw: unknown): MilsoftOutage[] {
  const what = 'Milsoft outages.json';
  const list = arrayAt(what, raw, '');
  for (let i = 0; i < list.length; i++) {
    const o = objectAt(what, list[i], '', i);
    if (!optNumOrText(o.outageRecID)) misfit(what, '', i, 'outageRecID', 'number or string', o.outageRecID);
    if (!optText(o.outageName)) misfit(what, '', i, 'outageName', 'string', o.outageName);
    if (!isPoint(o.outagePoint)) misfit(what, '', i, 'outagePoint', '{lat: number, lng: number}', o.outagePoint);
    if (!optText(o.outageStartTime)) misfit(what, '', i, 'outageStartTime', 'string', o.outageStartTime);
    if (!optText(o.estimatedTimeOfRestoral))
      misfit(what, '', i, 'estimatedTimeOfRestoral', 'string', o.estimatedTimeOfRestoral);
    if (!optText(o.cause)) misfit(what, '', i, 'cause', 'string', o.cause);
    if (!optBoolean(o.crewAssigned)) misfit(what, '', i, 'crewAssigned', 'boolean', o.crewAssigned);
    if (!optText(o.outageWorkStatus)) misfit(what, '', i, 'outageWorkStatus', 'string', o.outageWorkStatus);
    if (!optBoolean(o.isPlanned)) misfit(what, '', i, 'isPlanned', 'boolean', o.isPlanned);
    if (!optNumOrText(o.customersOutNow)) misfit(what, '', i, 'customersOutNow', 'number or string', o.customersOutNow);
  }
  return list as MilsoftOutage[];
}
