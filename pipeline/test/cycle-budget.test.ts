// The cycle never waits for its slowest source (issue 37 part 4): a source that drips its answer is carried past the
// cycle's budget and lands in the next cycle, marked late (not failed) meanwhile; its healthy neighbour is stored and
// published on time; a host that never sends headers fails after one headers time-out, not four. `poll --once` lands
// its late sources in one more cycle before it exits.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { endpoint } from '../src/contract/catalogue.ts';
import { fileFor } from '../src/contract/urls.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { ScriptedFeed, tempDir, until } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
/** Points in Miami-Dade (12086) and Orange (12095), as the hostile-source test places them. */
const MIAMI = { x: -80.45, y: 25.6 };
const ORLANDO = { x: -81.38, y: 28.54 };
const layer = (id: string, n: number, geometry: { x: number; y: number }) => ({
  features: [{ attributes: { OUTAGE_ID: id, EST_CUSTOMERS: n }, geometry }],
});

interface SourceRow {
  id: string;
  late_since: string | null;
  last_error: { reason: string; message: string } | null;
  customers_out: number | null;
}

describe('the cycle budget', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('cycle-budget');
  const clock = manualClock(new Date('2026-09-01T12:01:00Z'));
  const tree = new MemoryTreeWriter(clock());
  let p: Pipeline;
  const mk = (id: string) =>
    sourceDef({ id, connector: 'arcgis', states: ['FL'], url: `${feed.base}/${id}/0`, interval_min: 5, options: {} });
  const doc = (name: 'live.sources' | 'live.map') =>
    JSON.parse(tree.files.get(fileFor(endpoint(name), {}, 'json'))!.body.toString('utf8')).data;
  const row = (id: string) => (doc('live.sources').sources as SourceRow[]).find((s) => s.id === id)!;

  beforeAll(async () => {
    await feed.start();
    feed.set('/good/0/query', layer('g', 700, MIAMI));
    feed.set('/drip/0/query', { body: JSON.stringify(layer('d', 300, ORLANDO)), held: true });
    feed.set('/dead/0/query', { body: '{}', silent: true });
    p = await Pipeline.open({
      stateDir: path.join(tmp.dir, 'state'),
      outDir: path.join(tmp.dir, 'public'),
      sources: [mk('good'), mk('drip'), mk('dead')],
      clock,
      simulated: false,
      // The drip keeps every time-out but the source's own deadline from firing: only the budget can end the wait.
      http: { ...LOOPBACK_HTTP, bodyTimeoutMs: 1_000, requestDeadlineMs: 120_000, sourceDeadlineMs: 120_000 },
      cycleBudgetMs: 4_000,
      writer: (now) => Object.assign(tree, { now }),
    });
  });
  afterAll(async () => {
    await p?.close();
    await feed.stop();
    tmp.remove();
  });

  it('publishes the healthy neighbour within the budget and marks the dripping source late, not failed', async () => {
    const s = await p.cycle({ all: true });
    expect(s.late).toEqual(['drip']);
    expect(doc('live.map')['12086'][0]).toBe(700);
    expect(doc('live.map')['12095']).toBeUndefined();
    expect(row('good')).toMatchObject({ late_since: null, last_error: null, customers_out: 700 });
    expect(row('drip')).toMatchObject({
      late_since: '2026-09-01T12:01:00.000Z',
      last_error: null,
      customers_out: null,
    });
  });

  it('fails a host that never sends headers after one attempt', () => {
    expect(row('dead')).toMatchObject({ late_since: null, last_error: { reason: 'timeout' } });
    expect(row('dead').last_error?.message).toMatch(
      /sent no headers within the headers timeout \(1000 ms\), not retried/,
    );
    expect(feed.hits.filter((h) => h === '/dead/0/query')).toHaveLength(1);
  });

  it('lands the late poll in the next cycle, without polling it again', async () => {
    const hits = feed.hits.filter((h) => h === '/drip/0/query').length;
    expect(feed.release('/drip/0/query')).toBe(true);
    await until(() => p.carried.landed, 30_000);
    clock.advance(60_000);
    const s = await p.cycle();
    expect(s.late).toEqual([]);
    expect(s.polled).toBe(1); // the landed poll alone: nothing else is due a minute on
    expect(feed.hits.filter((h) => h === '/drip/0/query')).toHaveLength(hits);
    expect(doc('live.map')['12095'][0]).toBe(300);
    expect(row('drip')).toMatchObject({ late_since: null, last_error: null, customers_out: 300 });
  });
});

describe('poll --once beside a dripping source', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('once-late');
  const out = path.join(tmp.dir, 'public');
  let child: ReturnType<typeof spawn> | null = null;
  beforeAll(() => feed.start());
  afterAll(async () => {
    child?.kill('SIGKILL');
    await feed.stop();
    tmp.remove();
  });

  it('publishes the neighbour on time, waits for the late source, and lands it before it exits', async () => {
    feed.set('/good/0/query', layer('g', 700, MIAMI));
    feed.set('/drip/0/query', { body: JSON.stringify(layer('d', 300, ORLANDO)), held: true });
    const registry = path.join(tmp.dir, 'sources.csv');
    fs.writeFileSync(
      registry,
      [
        'id,utility,state,connector,url,interval_min,tier',
        ...['good', 'drip'].map((id) => `${id},${id} power,FL,arcgis,${feed.base}/${id}/0,10,2`),
      ].join('\n'),
    );
    const args = ['poll', '--once', '--no-deliveries', '--sources', registry, '--state', path.join(tmp.dir, 'state')];
    child = spawn(process.execPath, [BIN, ...args, '--out', out], {
      env: { ...process.env, OUTAGE_CYCLE_BUDGET_MS: '3000', OUTAGE_SOURCE_DEADLINE_MS: '120000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const s of [child.stdout!, child.stderr!]) s.on('data', (b: Buffer) => (output += b.toString()));
    const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
    await until(() => /waiting for 1 late source\(s\): drip/.test(output), 60_000);
    // The first cycle is published while the drip still runs: the neighbour's county is on the map.
    const map = () => JSON.parse(fs.readFileSync(path.join(out, 'api/v1/live/map.json'), 'utf8')).data;
    expect(map()['12086'][0]).toBe(700);
    expect(map()['12095']).toBeUndefined();
    feed.release('/drip/0/query');
    expect(await exited, output).toBe(0);
    expect(map()['12095'][0]).toBe(300);
  });
});
