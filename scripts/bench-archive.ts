// The archive at national scale (part of `npm run bench`; issue 25 part 6): a day of 96 quarters of a storm over the
// 3,231 counties and 1,000 sources, recorded as the cycle records them; archiving's cost per cycle, the bytes a day
// (and so a year) takes as Parquet and CSV, and the past-map answer's latency through the function layer.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import { STATES } from '../pipeline/src/geo/states.ts';
import { Db } from '../pipeline/src/state/db.ts';
import { recordArchive, QUARTER_MS } from '../pipeline/src/state/archive.ts';
import type { LiveState } from '../pipeline/src/state/rollup.ts';
import type { SourceDef } from '../pipeline/src/sources/source-def.ts';
import { FsTreeWriter } from '../pipeline/src/publish/tree-writer.ts';
import { ArchivePublisher } from '../pipeline/src/publish/archive.ts';
import { quarterDoc } from '../pipeline/src/state/archive-day.ts';
import { createApp } from '../pipeline/src/serve/app.ts';

type Row = { metric: string; value: string | number; target: string };
const DAY = '2026-09-01';
const SOURCES = 1_000;

/** Quarter q's storm: a band of counties out that moves across the country through the day. */
function liveAt(q: number): LiveState {
  const counties = loadAtlas().counties.map((c, i) => {
    const out = (i + q * 30) % 3231 < 1500 ? 10 + ((i * 7919 + q * 104729) % 20_000) : 0;
    return {
      ...{ fips: c.fips, name: c.name, state: c.state, customers_out: out, customers_served_feed: 30_000 },
      ...{ customers_modelled: 40_000, denominator: 40_000, customers_tracked: 30_000, pct_out: out / 400, band: 2 },
      ...{ magnitude: 3, level: 1.5, planned_out: null },
      ...{ sources: [], stale: i % 97 === 0, meters: false, updated_at: null },
    };
  });
  const states = STATES.map((s) => ({
    ...{ state: s.code, fips: s.fips, name: s.name, customers_out: 1000, customers_tracked: 2_000_000 },
    ...{ pct_out: 0.05, band: 0, magnitude: 2, level: 1, counties_out: 10 },
  }));
  const national = { customers_out: 1, customers_tracked: 160_000_000, pct_out: 0, counties_out: 1500, states_out: 52 };
  return { counties, states, national };
}

const sources: SourceDef[] = Array.from({ length: SOURCES }, (_, i) => ({
  ...{ id: `s${i}`, utility: `Utility ${i}`, states: ['TX'], connector: 'kubra' as const, url: 'https://x/' },
  ...{ interval_min: 15, tier: 3 as const, options: {}, customers: 1000, eia_ids: [] },
}));

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function benchArchive(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-archive-'));
  const db = await Db.open(path.join(dir, 'state'));
  try {
    const start = Date.parse(`${DAY}T00:00:00Z`);
    const times: number[] = [];
    for (let q = 0; q < 96; q++) {
      const now = new Date(start + q * QUARTER_MS);
      const t = performance.now();
      await db.transaction(() =>
        recordArchive(db, { live: liveAt(q), sources, statuses: new Map(), now, simulated: true }),
      );
      times.push(performance.now() - t);
    }
    // Each cycle also rebuilds the document of the quarter it wrote (the past map's source for the day in progress).
    const docMs: number[] = [];
    for (let q = 0; q < 96; q += 8) {
      const t = performance.now();
      await quarterDoc(db, new Date(start + q * QUARTER_MS).toISOString());
      docMs.push(performance.now() - t);
    }
    const out = path.join(dir, 'public');
    const published = new Date(start + 86_400_000 + 60_000);
    const w = new FsTreeWriter(out, published);
    await new ArchivePublisher((now) => new FsTreeWriter(out, now, 'archive')).publish(w, db, published, true);
    await w.commit({ simulated: true, notice: 'bench' });
    const [day] = await db.all<{ rows: number; csv_bytes: number; parquet_bytes: number }>(
      'SELECT * FROM archive_files',
    );
    const app = createApp({ outDir: out });
    const ms: number[] = [];
    for (let i = 0; i < 200; i++) {
      const at = new Date(start + (i % 96) * QUARTER_MS).toISOString();
      const t = performance.now();
      const res = await app.request(`/api/v1/archive/map?at=${at}`);
      await res.arrayBuffer();
      ms.push(performance.now() - t);
    }
    const mb = (n: number) => (n / 1e6).toFixed(2);
    return [
      {
        metric: 'archive: record one quarter (3,231 counties, 1,000 sources), median / p99 (ms)',
        value: `${Math.round(pct(times, 0.5))} / ${Math.round(pct(times, 0.99))}`,
        target: '< 5 % of the cycle',
      },
      {
        metric: "archive: the document of the cycle's quarter (the day in progress), per cycle, median (ms)",
        value: Math.round(pct(docMs, 0.5)),
        target: 'with recording: < 5 % of the cycle',
      },
      {
        metric: 'archive: a storm day, rows / Parquet MB / CSV MB',
        value: `${day.rows} / ${mb(day.parquet_bytes)} / ${mb(day.csv_bytes)}`,
        target: '',
      },
      { metric: 'archive: a year of such days, Parquet MB', value: mb(day.parquet_bytes * 365), target: '' },
      {
        metric: 'archive: past map answer, p50 / p99 (ms)',
        value: `${pct(ms, 0.5).toFixed(1)} / ${pct(ms, 0.99).toFixed(1)}`,
        target: '≤ 100 (p99)',
      },
    ];
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchArchive());
