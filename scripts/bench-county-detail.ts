// The function layer under a hostile feed (part of `npm run bench`; issue 24 part 6): one ArcGIS page of 150,000 (17.5 MB, under the 20 MB body cap)
// outage points in one county, one pipeline cycle, then 16 concurrent filtered requests on that county's incidents
// with /healthz asked beside them over a real socket. Reports the published document's size and the latencies.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { manualClock } from '../pipeline/src/clock.ts';
import { Pipeline } from '../pipeline/src/pipeline.ts';
import { LOOPBACK_HTTP } from '../pipeline/src/sources/http.ts';
import { startServer } from '../pipeline/src/serve/server.ts';
import { objectPath, readManifest } from '../pipeline/src/publish/tree-parts.ts';
import { endpoint } from '../pipeline/src/contract/catalogue.ts';
import { fileFor } from '../pipeline/src/contract/urls.ts';

const N = Number(process.env.BENCH_DETAIL_POINTS ?? 150_000);
const FIPS = '48201';

function page(): string {
  const features = Array.from({ length: N }, (_, i) => ({
    attributes: { OBJECTID: i + 1, OUTAGE_ID: `o${i}`, EST_CUSTOMERS: 1 + (i % 7), OUTAGE_CAUSE: 'Wind' },
    geometry: { x: -95.42 + ((i * 7919) % 1000) / 10_000, y: 29.72 + ((i * 104729) % 1000) / 10_000 },
  }));
  return JSON.stringify({ features, exceededTransferLimit: false });
}

const timed = async (url: string) => {
  const t = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  return performance.now() - t;
};

export async function benchCountyDetail(): Promise<Array<{ metric: string; value: string | number; target: string }>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-detail-'));
  const body = page();
  const upstream = http.createServer((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const port = (upstream.address() as AddressInfo).port;
  const source = {
    ...{ id: 'big', utility: 'Big Storm Electric', connector: 'arcgis' as const, states: ['TX'], tier: 1 as const },
    ...{ url: `http://127.0.0.1:${port}/arcgis/rest/services/O/MapServer/0`, interval_min: 5, customers: null },
    ...{ options: { page_size: N, max_records: 2 * N }, eia_ids: [] },
  };
  const pipeline = await Pipeline.open({
    ...{ stateDir: path.join(dir, 'state'), outDir: path.join(dir, 'public'), sources: [source] },
    ...{ clock: manualClock(new Date('2026-09-01T10:00:00Z')), simulated: true, http: LOOPBACK_HTTP },
  });
  try {
    const cycle = await pipeline.cycle({ all: true });
    if (cycle.failures.length) throw new Error(`the source failed: ${JSON.stringify(cycle.failures[0])}`);
    const server = await startServer({ outDir: path.join(dir, 'public'), port: 0 });
    try {
      const files = readManifest(path.join(dir, 'public'))!.files;
      const entry = files[fileFor(endpoint('live.county.incidents'), { fips: FIPS }, 'json')];
      const bytes = fs.statSync(objectPath(path.join(dir, 'public'), entry.object)).size;
      const base = `${server.url}/api/v1/live/counties/${FIPS}/incidents`;
      const t = performance.now();
      const asks = Array.from({ length: 16 }, (_, i) => timed(`${base}?min_customers=${1 + (i % 7)}`));
      const health = timed(`${server.url}/healthz`);
      const [all, h] = await Promise.all([Promise.all(asks), health]);
      const wall = performance.now() - t;
      return [
        {
          metric: `county incidents.json with ${N.toLocaleString('en-US')} points fed (MB)`,
          value: (bytes / 1e6).toFixed(1),
          target: '',
        },
        {
          metric: '16 concurrent filtered incident requests: wall / slowest (ms)',
          value: `${Math.round(wall)} / ${Math.round(Math.max(...all))}`,
          target: '',
        },
        { metric: '/healthz beside them (ms)', value: Math.round(h), target: '< 1000' },
      ];
    } finally {
      await server.close();
    }
  } finally {
    await pipeline.close();
    await new Promise((r) => upstream.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await benchCountyDetail());
