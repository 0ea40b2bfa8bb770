// PacifiCorp outage map files: map{ST}.json (state headline + outage points) and list{ST}.json (county/ZIP split),
// checked by hand in place for only the fields normalize reads (zod copied every point with its unread keys).
import { arrayAt, fail, misfit, nullish, objectAt, optArray, optNumOrText, optNumber, optText } from '../checks.ts';

type Count = number | string | null | undefined;
type Text = string | null | undefined;

/** One map point: an outage, or a cluster of nearby outages when outCount > 1. Only the fields normalize reads. */
export interface PacifiCorpPoint {
  icon?: Text;
  latitude?: number | null;
  longitude?: number | null;
  custOut?: Count;
  etr?: Text;
  reported?: Text;
  cause?: Text;
  crewStatus?: Text;
}

/** map{ST}.json: `totalState` is the state's headline (planned points included). */
export interface PacifiCorpMap {
  totalState?: Count;
  outages?: PacifiCorpPoint[] | null;
}

/** list{ST}.json: the same outages by county (and by ZIP, not read), split into planned and unplanned. */
export interface PacifiCorpList {
  counties?: Array<{ countyName: string; custOutUnplan?: Count; custOutPlan?: Count }> | null;
}

export interface PacifiCorpState {
  state: string;
  map: PacifiCorpMap;
  list?: PacifiCorpList | null;
}

/** What fetch returns: one entry per state file, and the HTTP Date of the answers (the year of the local times). */
export interface PacifiCorpRaw {
  captured_at: string | null;
  states: Array<{ state: string; map: unknown; list: unknown }>;
}

const WHAT = 'PacifiCorp outage map files';

function checkPoints(list: unknown, at: string): void {
  const points = arrayAt(WHAT, list, at);
  for (let i = 0; i < points.length; i++) {
    const p = objectAt(WHAT, points[i], at, i);
    if (!optText(p.icon)) misfit(WHAT, at, i, 'icon', 'string', p.icon);
    if (!optNumber(p.latitude)) misfit(WHAT, at, i, 'latitude', 'number', p.latitude);
    if (!optNumber(p.longitude)) misfit(WHAT, at, i, 'longitude', 'number', p.longitude);
    if (!optNumOrText(p.custOut)) misfit(WHAT, at, i, 'custOut', 'number or string', p.custOut);
    if (!optText(p.etr)) misfit(WHAT, at, i, 'etr', 'string', p.etr);
    if (!optText(p.reported)) misfit(WHAT, at, i, 'reported', 'string', p.reported);
    if (!optText(p.cause)) misfit(WHAT, at, i, 'cause', 'string', p.cause);
    if (!optText(p.crewStatus)) misfit(WHAT, at, i, 'crewStatus', 'string', p.crewStatus);
  }
}

function checkCounties(list: unknown, at: string): void {
  const rows = arrayAt(WHAT, list, at);
  for (let i = 0; i < rows.length; i++) {
    const c = objectAt(WHAT, rows[i], at, i);
    if (typeof c.countyName !== 'string') misfit(WHAT, at, i, 'countyName', 'string', c.countyName);
    if (!optNumOrText(c.custOutUnplan)) misfit(WHAT, at, i, 'custOutUnplan', 'number or string', c.custOutUnplan);
    if (!optNumOrText(c.custOutPlan)) misfit(WHAT, at, i, 'custOutPlan', 'number or string', c.custOutPlan);
  }
}

/** What fetch returns, checked in place (no copy). */
export function readRaw(raw: unknown): { captured_at?: string | null; states: PacifiCorpState[] } {
  const root = objectAt(WHAT, raw, '');
  if (!optText(root.captured_at)) fail(WHAT, 'captured_at', 'string', root.captured_at);
  const states = arrayAt(WHAT, root.states, 'states');
  for (let i = 0; i < states.length; i++) {
    const entry = objectAt(WHAT, states[i], 'states', i);
    if (typeof entry.state !== 'string') misfit(WHAT, 'states', i, 'state', 'string', entry.state);
    const map = objectAt(WHAT, entry.map, `states.${i}.map`);
    if (!optNumOrText(map.totalState)) fail(WHAT, `states.${i}.map.totalState`, 'number or string', map.totalState);
    if (!nullish(map.outages)) checkPoints(map.outages, `states.${i}.map.outages`);
    if (nullish(entry.list)) continue;
    const list = objectAt(WHAT, entry.list, `states.${i}.list`);
    if (!optArray(list.counties)) fail(WHAT, `states.${i}.list.counties`, 'array', list.counties);
    if (!nullish(list.counties)) checkCounties(list.counties, `states.${i}.list.counties`);
  }
  return raw as { captured_at?: string | null; states: PacifiCorpState[] };
}
