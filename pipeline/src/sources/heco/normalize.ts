// Hawaiian Electric normalize: the point-list reader with the answer as schema.ts declares it. Each outage is an
// incident placed in a county by its point (Hawaii only); customers out is their sum (the answer has no headline).
// "Today at 03:30 PM HST" is read against the answer's own HTTP Date in Honolulu; without one it is no time.
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { normalizePoints } from '../pointlist/normalize.ts';
import { readRaw, SPEC } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const { captured_at, answer } = readRaw(raw);
  return normalizePoints(answer, source, SPEC, captured_at ? Date.parse(captured_at) : Number.NaN);
}
