// Hawaiian Electric outages answer as a point list (pointlist/options.ts): `outages[]{outageId, totalCustomersAffected,
// affectedAreas[], estimatedRestoreTime ("Today at 03:30 PM HST"), company, geometry.coordinates[0]{x, y}}`. What
// fetch returns wraps it with the answer's HTTP Date, which a "Today at …" ETR needs: `{captured_at, answer}`.
import { fail, isObj, objectAt, optText } from '../checks.ts';
import { pointSpec } from '../pointlist/options.ts';

export const SPEC = pointSpec({
  what: 'Hawaiian Electric outages answer',
  list: 'outages',
  count: 'totalCustomersAffected',
  id: 'outageId',
  lon: 'geometry.coordinates.0.x',
  lat: 'geometry.coordinates.0.y',
  etr: 'estimatedRestoreTime',
  etr_format: 'day_at',
  city: 'affectedAreas.0',
  time_zone: 'Pacific/Honolulu',
});

/** What fetch returns: the answer, and its HTTP Date (ISO) when the upstream sent one. */
export interface HecoRaw {
  captured_at: string | null;
  answer: unknown;
}

const WHAT = 'Hawaiian Electric fetch result';

/** The wrapper, checked: `captured_at` a string or null, `answer` present (the point-list reader checks it). */
export function readRaw(raw: unknown): HecoRaw {
  const root = objectAt(WHAT, raw, '');
  if (!optText(root.captured_at)) fail(WHAT, 'captured_at', 'string', root.captured_at);
  if (!isObj(root.answer)) fail(WHAT, 'answer', 'object', root.answer);
  return root as unknown as HecoRaw;
}
