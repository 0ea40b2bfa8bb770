// KUB normalize: the point-list reader with KUB's answer as schema.ts declares it. Each outage is an incident placed
// in a county by its point (Tennessee only); customers_out and customers_served are KUB's own headline totals
// (electricOutageInfo), the sum of the outages only without one.
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { normalizePoints } from '../pointlist/normalize.ts';
import { readEtr } from '../pointlist/etr.ts';
import { SPEC } from './schema.ts';

export const normalize = (raw: unknown, source: SourceDef): Snapshot => normalizePoints(raw, source, SPEC);

/** An ETR as KUB prints it: ISO wall clock in `zone`, or an instant when it carries an offset. */
export const etrOf = (text: string | null | undefined, zone: string): string | null => readEtr(text, 'iso', zone);
