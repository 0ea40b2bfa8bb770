// OutageEntry `cfa_device_markers` answer: {result, "0": {markers: [...]}}; numbers arrive as strings. Checked by
// hand in place, only the fields normalize reads; the rest (substation, feeder, poly, duration …) are not looked at.
import { arrayAt, isObj, misfit, nullish, objectAt, optNumOrText, optText } from '../checks.ts';

type NumOrText = string | number | null | undefined;
type Text = string | null | undefined;

export interface OutageEntryMarker {
  incident_id?: NumOrText;
  consumers_affected?: NumOrText;
  lat?: NumOrText;
  lon?: NumOrText;
  estimated_restore_time?: Text;
  formatted_ert?: Text;
  start_date?: Text;
}

const WHAT = 'OutageEntry cfa_device_markers answer';
const AT = '0.markers';

/** The markers. A quiet day may come back as `"0": {}`, `"0": []` (an empty PHP array) or without "0" at all. */
export function readMarkers(raw: unknown): OutageEntryMarker[] {
  const group = objectAt(WHAT, raw, '')['0'];
  if (nullish(group) || (Array.isArray(group) && group.length === 0)) return [];
  const markers = objectAt(WHAT, group, '0').markers;
  if (nullish(markers)) return [];
  const list = arrayAt(WHAT, markers, AT);
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    if (!isObj(m)) misfit(WHAT, AT, i, '', 'object', m);
    if (!optNumOrText(m.incident_id)) misfit(WHAT, AT, i, 'incident_id', 'number or string', m.incident_id);
    if (!optNumOrText(m.consumers_affected))
      misfit(WHAT, AT, i, 'consumers_affected', 'number or string', m.consumers_affected);
    if (!optNumOrText(m.lat)) misfit(WHAT, AT, i, 'lat', 'number or string', m.lat);
    if (!optNumOrText(m.lon)) misfit(WHAT, AT, i, 'lon', 'number or string', m.lon);
    if (!optText(m.estimated_restore_time))
      misfit(WHAT, AT, i, 'estimated_restore_time', 'string', m.estimated_restore_time);
    if (!optText(m.formatted_ert)) misfit(WHAT, AT, i, 'formatted_ert', 'string', m.formatted_ert);
    if (!optText(m.start_date)) misfit(WHAT, AT, i, 'start_date', 'string', m.start_date);
  }
  return list as OutageEntryMarker[];
}
