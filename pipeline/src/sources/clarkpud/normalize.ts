// Clark PUD normalize: the point-list reader with the payload as schema.ts declares it. Each open outage is an incident
// placed in a county by its point (Washington only); customers out is the feed's own total. The feed gives no
// customers served.
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { normalizePoints } from '../pointlist/normalize.ts';
import { readEtr } from '../pointlist/etr.ts';
import { SPEC } from './schema.ts';

export const normalize = (raw: unknown, source: SourceDef): Snapshot => normalizePoints(raw, source, SPEC);

/** An ETR as Clark PUD sends it: ISO with an offset as written, without one in `zone`; epoch ms as an instant. */
export const etrOf = (v: number | string | null | undefined, zone: string): string | null => readEtr(v, 'iso', zone);
