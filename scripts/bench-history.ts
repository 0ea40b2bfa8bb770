// History benchmark (`npm run bench`, after the live one): one year of EAGLE-I-scale data (~25 million rows) in the
// real CSV layout from the simulated-history generator, then import + episodes + every report table, peak RSS; the
// report tree publish; chart render times; and a full rebuild of every county's decade and monthly chart.
// Environment: BENCH_HISTORY_EPISODES (episodes per county-year, default 316 ≈ 25 M rows), BENCH_CHARTS=0 skips the
// full chart rebuild. Writes bench-results/history.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db } from '../pipeline/src/state/db.ts';
import { writeSimulatedHistory } from '../pipeline/src/simulator/history.ts';
import { writeSimulatedEia861, writeSimulatedOe417 } from '../pipeline/src/simulator/reference-files.ts';
import { importEagleI, importEia861, importOe417 } from '../pipeline/src/history/import.ts';
import { countyHistories, deriveEpisodes } from '../pipeline/src/history/derive.ts';
import { computeReports } from '../pipeline/src/history/reports.ts';
import { countyModel, loadCountyModel } from '../pipeline/src/geo/county-model.ts';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import { publishHistoryTree, decadeReportSpec } from '../pipeline/src/publish/reports.ts';
import { renderChart } from '../pipeline/src/publish/charts.ts';
import { decadeSpec, monthlySpec } from '../pipeline/src/publish/chart-specs.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const EPISODES = Number(process.env.BENCH_HISTORY_EPISODES ?? 316);
const YEAR = 2023;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-bench-history-'));
const rows: Array<{ metric: string; value: string | number; target: string }> = [];
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
async function time<T>(fn: () => Promise<T>): Promise<{ v: T; ms: number }> {
  const t0 = performance.now();
  const v = await fn();
  return { v, ms: Math.round(performance.now() - t0) };
}

try {
  // Generation happens in its own database so the import below starts cold.
  const gen = await Db.open(path.join(dir, 'gen'));
  const model = loadCountyModel();
  const g = await time(() =>
    writeSimulatedHistory(gen, path.join(dir, 'files'), model, {
      seed: 7,
      firstYear: YEAR,
      lastYear: YEAR,
      episodesPerYear: EPISODES,
    }),
  );
  gen.close();
  const file = g.v[0];
  const bytes = fs.statSync(file).size;
  const oe417 = writeSimulatedOe417(path.join(dir, 'files'), 7, YEAR, YEAR);
  const eia = writeSimulatedEia861(path.join(dir, 'files'), 7, YEAR, model);
  rows.push({
    metric: `generate one EAGLE-I year (${(bytes / 1e9).toFixed(2)} GB CSV)`,
    value: `${(g.ms / 1000).toFixed(1)} s`,
    target: '',
  });

  const db = await Db.open(path.join(dir, 'state'));
  const rssBefore = rssMb();
  const imp = await time(() => importEagleI(db, file));
  for (const f of oe417) await importOe417(db, f);
  for (const f of eia) await importEia861(db, f);
  const m = await countyModel(db, model);
  const ep = await time(() => deriveEpisodes(db, m));
  const rep = await time(() => computeReports(db, m, new Date(`${YEAR + 1}-06-01T00:00:00Z`)));
  const total = imp.ms + ep.ms + rep.ms;
  rows.push(
    {
      metric: 'EAGLE-I rows imported / rejected',
      value: `${imp.v.rows_loaded.toLocaleString('en-US')} / ${imp.v.rows_rejected}`,
      target: '~25,000,000',
    },
    { metric: 'import (s)', value: (imp.ms / 1000).toFixed(1), target: '' },
    {
      metric: 'episodes derived (count / s)',
      value: `${ep.v.toLocaleString('en-US')} / ${(ep.ms / 1000).toFixed(1)}`,
      target: '',
    },
    { metric: 'all report tables computed (s)', value: (rep.ms / 1000).toFixed(1), target: '' },
    { metric: 'import + episodes + report tables (s)', value: (total / 1000).toFixed(1), target: '≤ 60' },
    { metric: 'peak RSS through import + reports (MB)', value: rssMb(), target: '≤ 4096' },
  );
  console.log(`import + reports: ${(total / 1000).toFixed(1)} s, peak RSS ${rssMb()} MB (before ${rssBefore} MB)`);
  const pub = await time(() =>
    publishHistoryTree(db, path.join(dir, 'public'), { now: new Date(`${YEAR + 1}-06-01T00:00:00Z`) }),
  );
  rows.push({
    metric: 'report tree publish, first (files / s)',
    value: `${pub.v.written.toLocaleString('en-US')} / ${(pub.ms / 1000).toFixed(1)}`,
    target: '',
  });
  rows.push({ metric: 'peak RSS including the publish (MB)', value: rssMb(), target: '' });

  // Chart rendering: the first render initialises the renderer and is not counted.
  const histories = await countyHistories(db);
  const atlas = loadAtlas();
  const specs = [...histories].flatMap(([fips, h]) => {
    const c = atlas.byFips.get(fips) ?? { name: fips, state: '' };
    return [decadeSpec(c, h.years, true), monthlySpec(c, h.months, true)];
  });
  await renderChart(specs[0], new Date().toISOString());
  const sample: number[] = [];
  for (const spec of [
    ...specs.slice(0, 30),
    ...Array.from({ length: 10 }, (_, i) => decadeReportSpec('United States', rep.v.national, YEAR - i, true)),
  ]) {
    const t0 = performance.now();
    await renderChart(spec, new Date().toISOString());
    sample.push(performance.now() - t0);
  }
  sample.sort((a, b) => a - b);
  rows.push({
    metric: 'chart render median / p90 (ms, 40 county and report charts)',
    value: `${sample[20].toFixed(1)} / ${sample[36].toFixed(1)}`,
    target: 'median ≤ 40',
  });
  if (process.env.BENCH_CHARTS !== '0') {
    const t0 = performance.now();
    for (const spec of specs) await renderChart(spec, new Date().toISOString());
    const s = (performance.now() - t0) / 1000;
    rows.push({
      metric: `full rebuild of every county chart (${specs.length.toLocaleString('en-US')} decade + monthly)`,
      value: `${s.toFixed(0)} s (${((s * 1000) / specs.length).toFixed(1)} ms each)`,
      target: '',
    });
  }
  db.close();
  console.table(rows);
  fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'bench-results', 'history.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        episodes_per_county_year: EPISODES,
        rows,
      },
      null,
      2,
    ),
  );
  console.log('written to bench-results/history.json');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
