// Event stream at scale (part of `npm run bench`): 1,000,000 stored events → published chunks → filtered
// /api/v1/events and feed requests through the function layer over a real socket: p50/p99 latency.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { Db } from '../pipeline/src/state/db.ts';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import { FsTreeWriter } from '../pipeline/src/publish/tree-writer.ts';
import { publishEvents } from '../pipeline/src/publish/events.ts';
import { startServer } from '../pipeline/src/serve/server.ts';
import { encodeCursor } from '../pipeline/src/contract/events.ts';
import { unit } from '../pipeline/src/simulator/random.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const N = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 2000);

export async function benchEvents(): Promise<Array<{ metric: string; value: string | number; target: string }>> {
  const dir = fs.mkdtempSync(path.join(ROOT, 'bench-results', 'events-'));
  try {
    return await benchIn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function benchIn(dir: string): Promise<Array<{ metric: string; value: string | number; target: string }>> {
  const db = await Db.open(path.join(dir, 'state'));
  const counties = loadAtlas().counties;
  await db.run(
    'CREATE TEMP TABLE c AS SELECT * FROM (VALUES ' +
      counties.map((c, i) => `(${i}, '${c.fips}', '${c.state}')`).join(',') +
      ') t(i, fips, state)',
  );
  const kinds =
    "['outage_began','outage_grew','etr_changed','outage_improving','outage_restored','major_event','feed_stale','feed_recovered']";
  let t = performance.now();
  // The columns named: later ones (incident events' etr_slip_min, incident_id …) stay null.
  await db.run(`INSERT INTO events (id, event_at, kind, scope, fips, state, utility, area, source_id, outage_id, customers_out, pct_out, threshold, previous, etr, previous_etr)
    SELECT r.i, strftime(TIMESTAMP '2026-06-01 00:00:00' + r.i * INTERVAL 2 SECOND, '%Y-%m-%dT%H:%M:%S.000Z'),
      ${kinds}[1 + (hash(r.i, 'k') % 8)::INT], CASE WHEN r.i % 5 = 0 THEN 'utility' WHEN r.i % 5 = 1 THEN 'municipality' ELSE 'county' END,
      CASE WHEN r.i % 5 = 0 THEN NULL ELSE c.fips END, c.state, 'Utility ' || c.state || ' ' || (1 + hash(r.i, 'u') % 3)::VARCHAR,
      CASE WHEN r.i % 5 = 1 THEN 'Township ' || (r.i % 40)::VARCHAR ELSE NULL END, NULL, 'o' || (r.i // 7)::VARCHAR,
      (hash(r.i, 'n') % 100000)::BIGINT, NULL, 500, NULL, NULL, NULL
    FROM range(1, ${N + 1}) r(i) JOIN c ON c.i = hash(r.i, 'c') % ${counties.length}`);
  const insertMs = Math.round(performance.now() - t);
  const utilities = [...new Set(counties.map((c) => c.state))].flatMap((s) =>
    [1, 2, 3].map((k) => `Utility ${s} ${k}`),
  );
  const out = path.join(dir, 'public');
  const now = new Date('2026-06-25T00:00:00Z');
  t = performance.now();
  const w1 = new FsTreeWriter(out, now);
  await publishEvents(w1, db, { utilities, baseUrl: 'http://127.0.0.1', simulated: true, now, retentionDays: 3650 });
  await w1.commit({ simulated: true, notice: 'bench' });
  const firstPublishMs = Math.round(performance.now() - t);
  // A cycle later: 500 new events; only the open chunk, the index, the latest page and the feeds change.
  await db.run(
    `INSERT INTO events (id, event_at, kind, scope, fips, state, utility, area, source_id, outage_id, customers_out, pct_out, threshold, previous, etr, previous_etr) SELECT id + 500, event_at, kind, scope, fips, state, utility, area, source_id, outage_id, customers_out, pct_out, threshold, previous, etr, previous_etr FROM events WHERE id > ${N - 500}`,
  );
  t = performance.now();
  const w2 = new FsTreeWriter(out, new Date(now.getTime() + 60_000));
  await publishEvents(w2, db, { utilities, baseUrl: 'http://127.0.0.1', simulated: true, now, retentionDays: 3650 });
  const incremental = await w2.commit({ simulated: true, notice: 'bench' });
  const incrementalMs = Math.round(performance.now() - t);
  db.close();

  const server = await startServer({ outDir: out, port: 0 });
  const agent = new Agent({ connections: 4 });
  try {
    const paths: string[] = [];
    for (let i = 0; i < QUERIES; i++) {
      const r = unit(9, 'q', i);
      const c = counties[Math.floor(unit(9, 'c', i) * counties.length)];
      if (r < 0.3) paths.push(`/api/v1/events?fips=${c.fips}`);
      else if (r < 0.5) paths.push(`/api/v1/events?state=${c.state}&kind=outage_began`);
      else if (r < 0.65) paths.push(`/api/v1/events?utility=${encodeURIComponent(`Utility ${c.state} 2`)}&limit=50`);
      else if (r < 0.8) paths.push('/api/v1/events?min_customers=99990');
      else if (r < 0.9) paths.push(`/api/v1/events?after=${encodeCursor(Math.floor(unit(9, 'a', i) * N))}&limit=100`);
      else paths.push(`/api/v1/events?kind=major_event&since=2026-06-20`);
    }
    const timeAll = async (list: string[]) => {
      const ms: number[] = [];
      for (const p of list) {
        const t0 = performance.now();
        const res = await request(`${server.url}${p}`, { dispatcher: agent });
        await res.body.arrayBuffer();
        if (res.statusCode !== 200) throw new Error(`${p} → ${res.statusCode}`);
        ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      return { p50: ms[Math.floor(ms.length * 0.5)].toFixed(1), p99: ms[Math.floor(ms.length * 0.99)].toFixed(1) };
    };
    await timeAll(paths.slice(0, 200)); // warm the chunk cache as a running function instance would be
    const events = await timeAll(paths);
    const feeds = await timeAll(
      Array.from(
        { length: 200 },
        (_, i) =>
          `/feeds/events.${['rss', 'atom', 'json'][i % 3]}?state=${counties[Math.floor(unit(9, 'f', i) * counties.length)].state}`,
      ),
    );
    return [
      { metric: 'events stored', value: N, target: '1,000,000' },
      { metric: 'events insert (ms)', value: insertMs, target: '' },
      { metric: 'events first publish: 1,000 chunks + index + page + feeds (ms)', value: firstPublishMs, target: '' },
      {
        metric: 'events publish after +500 events (ms) / files written',
        value: `${incrementalMs} / ${incremental.written}`,
        target: '',
      },
      {
        metric: `filtered /api/v1/events p50 / p99 (ms, ${QUERIES} requests)`,
        value: `${events.p50} / ${events.p99}`,
        target: 'p99 ≤ 50',
      },
      { metric: 'filtered feed generation p50 / p99 (ms)', value: `${feeds.p50} / ${feeds.p99}`, target: '' },
    ];
  } finally {
    await server.close();
    await agent.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchEvents());
