// Builds data/reference/eia861-territory.csv (utility_number, state, fips): the counties of each utility's EIA-861 2018
// service territory, which customers_tracked spreads a registry row's customers over (pipeline/src/geo/territory.ts),
// so the pipeline never reads ../shared/data at run time. County names are joined to FIPS by the project's county
// matcher (geo/match.ts matchCounty), the one the feeds' names go through.
// A maintenance script: it reads ../shared/data. Run: npx tsx scripts/build-eia-territory.ts. Notes: data/reference/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { matchCounty } from '../pipeline/src/geo/match.ts';
import { findState } from '../pipeline/src/geo/states.ts';
import { TERRITORY_COLUMNS } from '../pipeline/src/geo/territory.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(ROOT, process.env.OUTAGE_SHARED_DATA ?? '../shared/data');
const SOURCE = path.join(SHARED, 'reference/eia861/service_territory_2018.csv');
const OUT = 'data/reference/eia861-territory.csv';

/**
 * Counties renamed or merged since EIA-861 2018 was filed, which the matcher (us-atlas 2017 names) does not know:
 * Wade Hampton became Kusilvak (2015), Shannon County SD became Oglala Lakota (2015), Bedford City VA joined Bedford
 * County (2013). Keyed `state|name as EIA-861 spells it`.
 */
const RENAMED: Record<string, string> = {
  'AK|Wade Hampton Census Area': 'Kusilvak Census Area',
  'SD|Shannon County': 'Oglala Lakota County',
  'VA|Bedford City': 'Bedford County',
};

interface SourceRow {
  Utility_Number: string;
  Utility_Name: string;
  County_FIPS: string;
  County_Name: string;
  State_FIPS: string;
  State_Name: string;
}

function main(): void {
  const rows = parse(fs.readFileSync(SOURCE), { columns: true, skip_empty_lines: true, bom: true }) as SourceRow[];
  const out = new Map<string, { utility_number: number; state: string; fips: string }>();
  const unmatched: string[] = [];
  const renamed = new Set<string>();
  const disagree: string[] = [];
  for (const r of rows) {
    const state = findState(r.State_Name) ?? findState(r.State_FIPS.slice(0, 2).padStart(2, '0'));
    let fips = state ? matchCounty(state.code, r.County_Name) : undefined;
    const now = state && RENAMED[`${state.code}|${r.County_Name}`];
    if (!fips && state && now) {
      fips = matchCounty(state.code, now);
      renamed.add(`${r.County_Name}, ${state.code} → ${now} (${fips})`);
    }
    if (!state || !fips) {
      unmatched.push(`${r.Utility_Number} ${r.Utility_Name}: ${r.County_Name}, ${r.State_Name}`);
      continue;
    }
    // The file's own County_FIPS (leading zero dropped) is a cross-check only: the name is what EIA-861 publishes.
    const given = r.County_FIPS.trim().padStart(5, '0');
    if (given !== fips && !now) disagree.push(`${r.County_Name}, ${state.code}: ${given} in the file, ${fips} by name`);
    const utility_number = Number(r.Utility_Number);
    out.set(`${utility_number}|${fips}`, { utility_number, state: state.code, fips });
  }
  const sorted = [...out.values()].sort((a, b) => a.utility_number - b.utility_number || a.fips.localeCompare(b.fips));
  fs.writeFileSync(path.join(ROOT, OUT), stringify(sorted, { header: true, columns: [...TERRITORY_COLUMNS] }));
  const utilities = new Set(sorted.map((r) => r.utility_number)).size;
  console.log(
    `${OUT}: ${sorted.length} utility × county rows of ${utilities} utilities, from ${rows.length} rows of ${path.relative(ROOT, SOURCE)}`,
  );
  console.log(`not matched by name, joined as renamed: ${[...renamed].join('; ') || 'none'}`);
  console.log(`not matched (${unmatched.length}): ${unmatched.join('; ') || 'none'}`);
  console.log(
    `FIPS in the file differs from the name's (${disagree.length}): ${[...new Set(disagree)].join('; ') || 'none'}`,
  );
}

main();
