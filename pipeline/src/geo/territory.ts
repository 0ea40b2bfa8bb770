// Utilities' EIA-861 2018 service territories (data/reference/eia861-territory.csv, built by
// scripts/build-eia-territory.ts) and a registry row's customers spread over them: the half of customers_tracked a
// feed without served counts gives (state/tracked.ts). Read once per process, from data/ (never ../shared).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { fromRoot } from '../package-root.ts';
import type { SourceDef } from '../sources/source-def.ts';

export const TERRITORY_FILE = fromRoot('data/reference/eia861-territory.csv');
export const TERRITORY_COLUMNS = ['utility_number', 'state', 'fips'] as const;

/** utility number → its territory counties as [postal code, fips] pairs. */
export type Territory = Map<string, Array<[string, string]>>;

let cached: Territory | undefined;

export function loadTerritory(file = TERRITORY_FILE): Territory {
  if (cached && file === TERRITORY_FILE) return cached;
  const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true }) as Array<
    Record<(typeof TERRITORY_COLUMNS)[number], string>
  >;
  const territory: Territory = new Map();
  for (const r of rows) {
    if (!/^\d{5}$/.test(r.fips)) continue;
    const list = territory.get(r.utility_number) ?? territory.set(r.utility_number, []).get(r.utility_number)!;
    list.push([r.state, r.fips]);
  }
  if (file === TERRITORY_FILE) cached = territory;
  return territory;
}

/** The row's territory counties: those of its `eia_id` utilities in the row's own states. */
export function rowCounties(source: Pick<SourceDef, 'eia_ids' | 'states'>, territory: Territory): string[] {
  const states = new Set(source.states);
  const out = new Set<string>();
  for (const id of source.eia_ids)
    for (const [st, fips] of territory.get(String(Number(id))) ?? []) if (states.has(st)) out.add(fips);
  return [...out].sort();
}

/**
 * `customers` spread over `counties` in proportion to their modelled customers (evenly where none is modelled);
 * the shares are not rounded, so they add up to `customers`.
 */
export function spread(customers: number, counties: string[], model: Map<string, number>): Map<string, number> {
  const weights = counties.map((f) => model.get(f) ?? 0);
  const total = weights.reduce((s, w) => s + w, 0);
  return new Map(
    counties.map((f, i) => [f, total > 0 ? (customers * weights[i]) / total : customers / counties.length]),
  );
}
