// A clearly labelled SIMULATED decade of county outage history in the real EAGLE-I CSV layout (fips_code, county,
// state, customers_out, run_start_time; total_customers from 2024), written by DuckDB and loaded through the real
// importer, so `npm start` has history, profiles and charts on a fresh machine. Rows exist only while something is
// out (as in EAGLE-I, zeros are absent). Deterministic for a seed.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../state/db.ts';
import { loadAtlas } from '../geo/counties.ts';
import { STATES } from '../geo/states.ts';
import { atomicTarget } from '../publish/atomic-write.ts';

export interface HistoryPlan {
  seed: number;
  firstYear: number;
  lastYear: number;
  /** storm episodes per county and year (on average) */
  episodesPerYear: number;
}

export const SIMULATED_PREFIX = 'SIMULATED_eaglei_outages_';

/** Writes one CSV per year into `dir` (skipping years already written) and returns their paths. */
export async function writeSimulatedHistory(
  db: Db,
  dir: string,
  model: Map<string, number>,
  plan: HistoryPlan,
): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const stateName = new Map(STATES.map((s) => [s.code, s.name]));
  await db.run(
    'CREATE TEMP TABLE IF NOT EXISTS sim_counties (i INTEGER, fips VARCHAR, county VARCHAR, state VARCHAR, customers BIGINT)',
  );
  await db.run('DELETE FROM sim_counties');
  const a = await db.appender('sim_counties');
  loadAtlas().counties.forEach((c, i) => {
    a.appendInteger(i);
    a.appendVarchar(c.fips);
    a.appendVarchar(c.name);
    a.appendVarchar(stateName.get(c.state) ?? c.state);
    a.appendBigInt(BigInt(model.get(c.fips) ?? 1000));
    a.endRow();
  });
  a.closeSync();
  const files: string[] = [];
  for (let year = plan.firstYear; year <= plan.lastYear; year++) {
    const file = path.join(dir, `${SIMULATED_PREFIX}${year}.csv`);
    files.push(file);
    if (fs.existsSync(file)) continue;
    const total = year >= 2024 ? ', customers AS total_customers' : '';
    const target = atomicTarget(file);
    // Episodes: a start time in the year, a length of 1–48 intervals, a peak share rising then decaying.
    await db.run(`COPY (
      WITH ep AS (
        SELECT c.*, e.k,
          TIMESTAMP '${year}-01-01' + to_minutes(((hash(${plan.seed}, c.fips, ${year}, e.k, 't') % (365 * 96)) * 15)::BIGINT) AS t0,
          1 + hash(${plan.seed}, c.fips, ${year}, e.k, 'len') % 48 AS len,
          pow((hash(${plan.seed}, c.fips, ${year}, e.k, 'size') % 1000) / 1000.0, 6) * 0.6 AS share
        FROM sim_counties c, range(${plan.episodesPerYear}) e(k)
      )
      SELECT fips AS fips_code, county, state,
        greatest(1, round(customers * share * sin(pi() * (s.j + 0.5) / len)))::BIGINT AS customers_out,
        strftime(t0 + to_minutes((s.j * 15)::BIGINT), '%Y-%m-%d %H:%M:%S') AS run_start_time${total}
      FROM ep, range(48) s(j)
      WHERE s.j < len AND year(t0 + to_minutes((s.j * 15)::BIGINT)) = ${year}
      ORDER BY fips_code, run_start_time
    ) TO '${target.tmp}' (FORMAT csv, HEADER true)`);
    target.commit();
  }
  return files;
}
