// Fuzz registries: a fixture's rows (each on its upstream's base URL) plus one healthy neighbour, an ArcGIS source in
// Juneau (02110), a county no fixture publishes (Chugach's fixture is in Anchorage), whose count changes every cycle so
// a stale copy cannot pass.
import { parseRegistry } from '../../src/registry/registry.ts';
import type { SourceDef } from '../../src/sources/source-def.ts';
import type { Fixture, Route } from './fixtures.ts';

export const NEIGHBOUR = { id: 'neighbour', fips: '02110', path: '/neighbour/FeatureServer/0' };

/** The `data` of live/map.json, where the neighbour's county shows its count first. */
export type MapData = Record<string, unknown[] | undefined>;
/** The `data` of live/sources.json, where the neighbour is listed. */
export interface SourcesData {
  sources: Array<{ id: string; customers_out: number; last_error: unknown }>;
}
/** The `data` of the neighbour's county document. */
export interface CountyData {
  sources: Array<{ source_id: string; customers_out: number }>;
}

/** The neighbour's route: one outage of `count()` customers at a point in Juneau. */
export function neighbourRoute(count: () => number): Route {
  return {
    path: `${NEIGHBOUR.path}/query`,
    answer: () => ({
      json: {
        features: [{ attributes: { OUTAGE_ID: 'n-1', EST_CUSTOMERS: count() }, geometry: { x: -134.42, y: 58.3 } }],
      },
    }),
  };
}

const cell = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The registry CSV of the fixtures (each served at its own base URL) and the neighbour. */
export function registryCsv(fixtures: Array<{ fixture: Fixture; base: string }>, neighbourBase: string): string {
  const lines = ['id,utility,state,connector,url,interval_min,tier,options,customers'];
  for (const { fixture, base } of fixtures) {
    for (const r of fixture.rows) {
      const options = JSON.stringify(r.options ?? {}).replaceAll('{base}', base);
      lines.push(
        [r.id, r.utility, r.state, fixture.connector, `${base}${r.path}`, '10', '2', options, String(r.customers ?? '')]
          .map(cell)
          .join(','),
      );
    }
  }
  lines.push(
    [NEIGHBOUR.id, 'Neighbour Electric', 'AK', 'arcgis', `${neighbourBase}${NEIGHBOUR.path}`, '10', '2', '{}', '240000']
      .map(cell)
      .join(','),
  );
  return `${lines.join('\n')}\n`;
}

export function fuzzSources(csv: string): SourceDef[] {
  const { sources, problems } = parseRegistry(csv);
  if (problems.length) throw new Error(`The fuzz registry has problems: ${JSON.stringify(problems)}`);
  return sources;
}
