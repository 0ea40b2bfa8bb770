// The probe cases: for every connector, its request chain over the real recorded payloads (as its own fetch.test.ts
// serves them) on two loopback upstreams, with a check derived from the payloads. Each family is declared in
// probe-cases/: the platforms, and the utilities' own feeds east and west of the Mississippi.
import { CONNECTORS } from '../src/sources/source-def.ts';
import type { Case } from './probe-cases/parts.ts';
import { platformCases } from './probe-cases/platforms.ts';
import { eastUtilityCases } from './probe-cases/utilities-east.ts';
import { westUtilityCases } from './probe-cases/utilities-west.ts';

export type { Case, Reply } from './probe-cases/parts.ts';
export { keyOf, sum } from './probe-cases/parts.ts';

/** Every connector's case, in the order of CONNECTORS (their routes are merged in this order). */
export function cases(a: string, b: string): Case[] {
  return [...platformCases(a, b), ...eastUtilityCases(a, b), ...westUtilityCases(a, b)].sort(
    (x, y) => CONNECTORS.indexOf(x.source.connector) - CONNECTORS.indexOf(y.source.connector),
  );
}
