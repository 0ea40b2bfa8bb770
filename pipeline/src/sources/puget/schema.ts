// Puget Sound Energy AnonymoussMapListView answer (2025-06 format): outage summaries and one PseMap point per outage,
// whose fields are Name/RefName–Value attribute pairs; checked in place for only what normalize reads.
import { arrayAt, fail, misfit, objectAt, optArray, optBoolean, optNumOrText, optObj, optText } from '../checks.ts';

type Text = string | null | undefined;
type NumText = number | string | null | undefined;

/** `RefName` is the stable key since 2025-06; `Name` is the display label, the only key before. */
export interface PseAttribute {
  Name?: Text;
  RefName?: Text;
  Value?: NumText;
}

/** Coordinates are strings in the real answer, numbers in the hand-made sample. */
export interface PsePoint {
  Latitude?: NumText;
  Longitude?: NumText;
  Title?: Text;
  Id?: NumText;
  PlannedOutage?: boolean | null;
  FilterType?: Text;
  PinType?: Text;
  MapType?: Text;
}

/** Polygon and BoundingBox pass through unread. */
export interface PseEntry {
  DataProvider: { Attributes?: PseAttribute[] | null; PointOfInterest?: PsePoint | null };
}

export interface PseSummary {
  /** spelled so by PSE */
  CustomerAfftectedCount?: NumText;
  OutageCount?: NumText;
}

/** The answer's summaries, PSE's own headline in parts (2025-06 on): unplanned, planned work, and power shutoffs. */
export const SUMMARIES = ['UnplannedOutageSummary', 'PlannedOutageSummary', 'PSPSSummary'] as const;

export interface PseAnswer {
  UnplannedOutageSummary?: PseSummary | null;
  PlannedOutageSummary?: PseSummary | null;
  PSPSSummary?: PseSummary | null;
  /** ISO UTC: the only dated time in the answer */
  LastUpdated?: Text;
  PseMap: PseEntry[];
}

export const WHAT = 'PSE AnonymoussMapListView answer';

function checkAttributes(list: unknown, at: string): void {
  const attrs = arrayAt(WHAT, list, at);
  for (let j = 0; j < attrs.length; j++) {
    const a = objectAt(WHAT, attrs[j], at, j);
    if (!optText(a.Name)) misfit(WHAT, at, j, 'Name', 'string', a.Name);
    if (!optText(a.RefName)) misfit(WHAT, at, j, 'RefName', 'string', a.RefName);
    if (!optNumOrText(a.Value)) misfit(WHAT, at, j, 'Value', 'number or string', a.Value);
  }
}

function checkPoint(p: Record<string, unknown>, at: string): void {
  if (!optNumOrText(p.Latitude)) fail(WHAT, `${at}.Latitude`, 'number or string', p.Latitude);
  if (!optNumOrText(p.Longitude)) fail(WHAT, `${at}.Longitude`, 'number or string', p.Longitude);
  if (!optNumOrText(p.Id)) fail(WHAT, `${at}.Id`, 'number or string', p.Id);
  if (!optText(p.Title)) fail(WHAT, `${at}.Title`, 'string', p.Title);
  if (!optBoolean(p.PlannedOutage)) fail(WHAT, `${at}.PlannedOutage`, 'boolean', p.PlannedOutage);
  if (!optText(p.FilterType)) fail(WHAT, `${at}.FilterType`, 'string', p.FilterType);
  if (!optText(p.PinType)) fail(WHAT, `${at}.PinType`, 'string', p.PinType);
  if (!optText(p.MapType)) fail(WHAT, `${at}.MapType`, 'string', p.MapType);
}

function checkEntry(e: unknown, i: number): void {
  const at = `PseMap.${i}.DataProvider`;
  const dp = objectAt(WHAT, objectAt(WHAT, e, 'PseMap', i).DataProvider, at);
  if (!optArray(dp.Attributes)) fail(WHAT, `${at}.Attributes`, 'array', dp.Attributes);
  if (Array.isArray(dp.Attributes)) checkAttributes(dp.Attributes, `${at}.Attributes`);
  if (!optObj(dp.PointOfInterest)) fail(WHAT, `${at}.PointOfInterest`, 'object', dp.PointOfInterest);
  if (dp.PointOfInterest) checkPoint(dp.PointOfInterest as Record<string, unknown>, `${at}.PointOfInterest`);
}

/** The answer, checked in place (no copy): a hand check, as zod copied every point with its polygon. */
export function readRaw(raw: unknown): PseAnswer {
  const root = objectAt(WHAT, raw, '');
  for (const name of SUMMARIES) {
    const summary = root[name];
    if (!optObj(summary)) fail(WHAT, name, 'object', summary);
    const count = (summary as Record<string, unknown> | null | undefined)?.CustomerAfftectedCount;
    if (!optNumOrText(count)) fail(WHAT, `${name}.CustomerAfftectedCount`, 'number or string', count);
  }
  if (!optText(root.LastUpdated)) fail(WHAT, 'LastUpdated', 'string', root.LastUpdated);
  const points = arrayAt(WHAT, root.PseMap, 'PseMap');
  for (let i = 0; i < points.length; i++) checkEntry(points[i], i);
  return raw as unknown as PseAnswer;
}
