// The national cycle over the real registry (issue #10): every active row of data/sources.csv is served its recorded
// fixture (../shared/data) over real HTTP on 127.0.0.1, and one pipeline cycle polls, quarantines, stores and
// publishes them all. A fixture is what the row's connector's fetch returns (its normaliser's input), so each row's
// connector is wrapped to GET it from loopback; the connectors' own request chains are replayed in their fetch tests.
// `tsx scripts/bench-registry.ts` prints the figures; `npm run bench` and pipeline/test/registry-replay.test.ts call it.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { manualClock } from '../pipeline/src/clock.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import type { CycleSummary } from '../pipeline/src/cycle/summary.ts';
import { connectorFor } from '../pipeline/src/sources/connectors.ts';
import type { Connector } from '../pipeline/src/sources/connector.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { loadRegistry } from '../pipeline/src/registry/registry.ts';
import type { ConnectorName } from '../pipeline/src/sources/source-def.ts';
import { recordedRaw } from '../pipeline/src/registry/fixtures.ts';
import { fixtureSource } from '../pipeline/src/registry/evidence.ts';
import { SHARED_DATA, hasSharedData } from '../pipeline/test/shared-data.ts';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const T0 = new Date('2026-11-23T18:00:00Z');

export interface RegistryReplay {
  rows: number;
  summary: CycleSummary;
  wallMs: number;
  peakRssMb: number;
  /** state codes in the published /live/map (every state has one) */
  statesPublished: string[];
  /** states with customers out in the published map */
  statesOut: string[];
  /** state codes of the registry's active rows */
  registryStates: string[];
  failures: CycleSummary['failures'];
}

/** Serves `/fixture/<row id>` with the bytes of the row's fixture file. */
async function fixtureServer(files: Map<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const cache = new Map<string, Buffer>();
  const server = http.createServer((req, res) => {
    const file = files.get(decodeURIComponent((req.url ?? '').replace(/^\/fixture\//, '')));
    if (!file) return res.writeHead(404).end();
    const body = cache.get(file) ?? cache.set(file, fs.readFileSync(file)).get(file)!;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { origin, close };
}

/** Each row's real feed URL, by row id: a text fixture (AES's XML) is read as that feed's form. */
const feedUrls = new Map<string, string>();
/** Each row's first fixture file, by row id (the `fixture` column lists the row's own captures first). */
const fixtureFiles = new Map<string, string>();

/**
 * The row's connector with its fetch replaced by one GET of the row's fixture over loopback (rows may borrow a
 * platform sibling's), read as a recorded file: a scraper's reshaping undone, the files recorded beside it joined.
 */
const fixtureConnector = (name: ConnectorName): Connector => ({
  fetch: async (ctx) => {
    await ctx.http.get(ctx.source.url, ctx.priority);
    return recordedRaw(name, feedUrls.get(ctx.source.id) ?? '', fixtureFiles.get(ctx.source.id) ?? '');
  },
  // A platform row's fixture is read with the platform's own field names (registry/evidence.ts fixtureSource).
  normalize: (raw, source) => connectorFor(name).normalize(raw, fixtureSource(source)),
});

export async function replayRegistry(registry = path.join(ROOT, 'data/sources.csv')): Promise<RegistryReplay> {
  const records = parse(fs.readFileSync(registry, 'utf8'), { columns: true, skip_empty_lines: true, comment: '#' });
  const fixtures = new Map<string, string>(
    (records as Array<Record<string, string>>).map((r) => [
      r.id,
      path.join(SHARED_DATA, (r.fixture ?? '').split(';')[0].trim()),
    ]),
  );
  for (const [id, file] of fixtures) fixtureFiles.set(id, file);
  const served = await fixtureServer(fixtures);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-registry-replay-'));
  try {
    const rows = loadRegistry(registry).sources;
    for (const s of rows) feedUrls.set(s.id, s.url);
    const sources = rows.map((s) => ({ ...s, url: `${served.origin}/fixture/${s.id}` }));
    const pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: path.join(dir, 'public'),
      sources,
      clock: manualClock(T0),
      simulated: false,
      http: LOOPBACK_HTTP,
      connectors: fixtureConnector,
    });
    const t0 = performance.now();
    const summary = await pipeline.cycle({ all: true }).finally(() => pipeline.close());
    const wallMs = Math.round(performance.now() - t0);
    const map = JSON.parse(fs.readFileSync(path.join(dir, 'public/api/v1/live/map.json'), 'utf8')) as {
      data: Record<string, [number, ...unknown[]]>;
    };
    const states = Object.entries(map.data).filter(([k]) => /^[A-Z]{2}$/.test(k));
    return {
      rows: sources.length,
      summary,
      wallMs,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      statesPublished: states.map(([k]) => k).sort(),
      statesOut: states
        .filter(([, v]) => v[0] > 0)
        .map(([k]) => k)
        .sort(),
      registryStates: [...new Set(sources.flatMap((s) => s.states))].sort(),
      failures: summary.failures,
    };
  } finally {
    await served.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's rows (`npm run bench`). */
export async function benchRegistry(): Promise<Array<{ metric: string; value: string | number; target: string }>> {
  if (!hasSharedData)
    return [{ metric: 'real registry replay', value: `skipped: no ${SHARED_DATA} (OUTAGE_SHARED_DATA)`, target: '' }];
  const r = await replayRegistry();
  return [
    {
      metric: 'real registry: active rows polled / ok',
      value: `${r.summary.polled} / ${r.summary.ok}`,
      target: `${r.rows} / ${r.rows}`,
    },
    { metric: 'real registry: national cycle wall time (ms)', value: r.wallMs, target: '' },
    {
      metric: 'real registry: customers out / counties out',
      value: `${r.summary.customersOut} / ${r.summary.countiesOut}`,
      target: '',
    },
    {
      metric: 'real registry: states in /live/map / with customers out / in the registry',
      value: `${r.statesPublished.length} / ${r.statesOut.length} / ${r.registryStates.length}`,
      target: 'every state (51) in the map',
    },
    { metric: 'real registry: peak RSS of the process so far (MB)', value: r.peakRssMb, target: '' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchRegistry());
