// Delivery benchmark (`npm run bench`): 10,000 alert rules, one 1,000-event cycle, every matching delivery signed
// and sent to a local receiver over real HTTP. Reports enqueue time, deliveries per second and peak RSS; the account
// database is PGlite (embedded) or PostgreSQL when OUTAGE_TEST_PG_URL is set. Writes bench-results/deliveries-<engine>.json.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPglite, openPostgres, migrate } from '../pipeline/src/accounts/sql.ts';
import { DeliveryEngine } from '../pipeline/src/accounts/deliver.ts';
import { logMailer } from '../pipeline/src/accounts/mailer.ts';
import { loadAtlas } from '../pipeline/src/geo/counties.ts';
import type { PublicEvent } from '../pipeline/src/contract/events.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const RULES = 10_000;
const EVENTS = 1_000;
const COUNTIES = 500;

let received = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    received += 1;
    res.writeHead(204).end();
  });
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;

const sql = process.env.OUTAGE_TEST_PG_URL ? await openPostgres(process.env.OUTAGE_TEST_PG_URL) : await openPglite();
await migrate(sql);
const counties = loadAtlas().counties.slice(0, COUNTIES);
const now = new Date('2026-09-01T08:00:00Z');
await sql.query('INSERT INTO accounts (id, email, created_at, verified_at) VALUES ($1, $2, $3, $3)', [
  'acct_bench',
  'bench@example.org',
  now,
]);
const ids = Array.from({ length: RULES }, (_, i) => `rule_${i}`);
const fips = ids.map((_, i) => counties[i % COUNTIES].fips);
await sql.query(
  `INSERT INTO rules (id, account_id, name, scope_kind, scope_value, kinds, min_customers, watched, created_at, updated_at)
  SELECT id, 'acct_bench', 'bench ' || id, 'county', f, ARRAY['outage_began','outage_grew','outage_restored'], (random() * 2000)::INT, '{}', $3, $3
  FROM unnest($1::text[], $2::text[]) AS t(id, f)`,
  [ids, fips, now],
);
await sql.query(
  // one receiver URL per rule: an account's event reaches each target once (fan-out.ts), so shared URLs would coalesce
  `INSERT INTO channels (id, rule_id, kind, target, secret) SELECT 'ch_' || id, id, 'webhook', $2 || '?rule=' || id, 'whsec_bench' FROM unnest($1::text[]) AS t(id)`,
  [ids, url],
);

const events: PublicEvent[] = Array.from({ length: EVENTS }, (_, i) => {
  const c = counties[i % COUNTIES];
  return {
    id: i + 1,
    at: now.toISOString(),
    kind: i % 3 === 0 ? 'outage_grew' : 'outage_began',
    scope: 'county',
    fips: c.fips,
    state: c.state,
    states: [c.state],
    utility: null,
    area: null,
    source_id: null,
    outage_id: `o${i}`,
    customers_out: 200 + ((i * 37) % 5000),
    pct_out: 1.5,
    threshold: 100,
    previous_customers_out: null,
    etr: null,
    previous_etr: null,
    county_name: c.name,
    title: `Outage: ${c.name}`,
    link: `/api/v1/live/counties/${c.fips}`,
  };
});

const engine = new DeliveryEngine({
  sql,
  mailer: logMailer(() => {}),
  baseUrl: 'https://outage.test',
  clock: () => now,
  safety: { allowLoopback: true },
  concurrency: 64,
  targetPerMinute: Number.POSITIVE_INFINITY, // the benchmark measures throughput, not the per-target limit
  // nor the in-flight limits: its 10,000 targets are one account's (a real one has at most 20)
  inFlight: { account: Number.POSITIVE_INFINITY },
});
let t0 = performance.now();
const enqueued = await engine.ingest(events);
const enqueueMs = performance.now() - t0;
t0 = performance.now();
const stats = await engine.runDue(2000);
const sendMs = performance.now() - t0;
const rows = [
  {
    metric: 'rules / events in the cycle',
    value: `${RULES.toLocaleString('en-US')} / ${EVENTS.toLocaleString('en-US')}`,
    target: '',
  },
  {
    metric: 'deliveries enqueued (matching + insert)',
    value: `${enqueued.toLocaleString('en-US')} in ${(enqueueMs / 1000).toFixed(1)} s`,
    target: '',
  },
  {
    metric: 'deliveries sent and recorded',
    value: `${stats.delivered.toLocaleString('en-US')} (receiver saw ${received.toLocaleString('en-US')}) in ${(sendMs / 1000).toFixed(1)} s`,
    target: '',
  },
  {
    metric: 'deliveries per second (sign + POST + record)',
    value: Math.round(stats.delivered / (sendMs / 1000)),
    target: 'report',
  },
  {
    metric: 'end to end per second (enqueue + send)',
    value: Math.round(stats.delivered / ((enqueueMs + sendMs) / 1000)),
    target: '',
  },
  { metric: 'account database', value: sql.engine, target: '' },
  { metric: 'peak RSS (MB)', value: Math.round(process.resourceUsage().maxRSS / 1024), target: '' },
];
console.table(rows);
fs.mkdirSync(path.join(ROOT, 'bench-results'), { recursive: true });
fs.writeFileSync(
  path.join(ROOT, 'bench-results', `deliveries-${sql.engine}.json`),
  JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows }, null, 2),
);
await engine.close();
await sql.close();
server.close();
