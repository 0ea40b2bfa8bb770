// Idaho Power normalize: the point-list reader with the answer as schema.ts declares it. Each outage is an incident
// placed in a county by its point (counties of the row's states only), planned ones counted and flagged;
// customers_out is the answer's totalCustomersAffected. ETRs are Boise wall clock without a zone.
import type { SourceDef } from '../source-def.ts';
import type { Snapshot } from '../snapshot.ts';
import { normalizePoints } from '../pointlist/normalize.ts';
import { readEtr } from '../pointlist/etr.ts';
import { SPEC } from './schema.ts';

export const normalize = (raw: unknown, source: SourceDef): Snapshot => normalizePoints(raw, source, SPEC);

/** An ETR as Idaho Power prints it: ISO wall clock in `zone`, or an instant when it carries an offset. */
export const etrOf = (text: string | null | undefined, zone: string): string | null => readEtr(text, 'iso', zone);
