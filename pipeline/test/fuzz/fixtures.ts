// Fuzz fixtures: for every connector, registry rows and the loopback routes that serve its real recorded payloads
// (../shared/data) the way its fetch test does. The fuzz mutates one route's answer per case. Each family is declared
// in fixtures/: the platforms, and the utilities' own feeds east and west of the Mississippi.
import { CONNECTORS } from '../../src/sources/source-def.ts';
import type { Fixture } from './fixtures/parts.ts';
import { PLATFORM_FIXTURES } from './fixtures/platforms.ts';
import { EAST_UTILITY_FIXTURES } from './fixtures/utilities-east.ts';
import { WEST_UTILITY_FIXTURES } from './fixtures/utilities-west.ts';

export type { Answer, Fixture, FixtureRow, Route } from './fixtures/parts.ts';

/** In the order of CONNECTORS, as before the split: each connector's hostile-text kind and seed follow its place. */
export const FIXTURES: Fixture[] = [...PLATFORM_FIXTURES, ...EAST_UTILITY_FIXTURES, ...WEST_UTILITY_FIXTURES].sort(
  (a, b) => CONNECTORS.indexOf(a.connector) - CONNECTORS.indexOf(b.connector),
);

export const fixtureFor = (connector: string): Fixture => {
  const f = FIXTURES.find((x) => x.connector === connector);
  if (!f)
    throw new Error(
      `No fuzz fixture for connector \`${connector}\`; add one to its family in pipeline/test/fuzz/fixtures/`,
    );
  return f;
};
