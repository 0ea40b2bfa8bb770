// Test helper: a real recorded sequence (../shared/data/sequences/<name>) served over HTTP on 127.0.0.1, one version at
// a time, for replays that poll it through the real pipeline at each version's commit time.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parse } from 'csv-parse/sync';
import { hasSharedData, sharedPath } from './shared-data.ts';
import type { Clock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import polyline from '@mapbox/polyline';
import { quadkeyFor } from '../src/sources/kubra/clusters.ts';

export interface Version {
  version: number;
  file: string;
  /** the scraper's commit time, UTC (index.csv `commit_time_utc`) */
  at: string;
  /** index.csv's plain sum and record count (only some sequences list them; NaN otherwise) */
  sum: number;
  records: number;
}

/** The sequence's versions, oldest first; none without the shared data (suites call this as they are collected). */
export function versions(seq: string): Version[] {
  if (!hasSharedData) return [];
  const rows = parse(fs.readFileSync(sharedPath(`sequences/${seq}/index.csv`)), { columns: true }) as Array<
    Record<string, string>
  >;
  return rows.map((r) => ({
    version: +r.version,
    file: r.file,
    at: r.commit_time_utc,
    sum: +r.sum_value,
    records: +r.records,
  }));
}

/** A recorded version's bytes. */
export const versionBytes = (seq: string, file: string): Buffer =>
  fs.readFileSync(sharedPath(`sequences/${seq}/${file}`));

export interface ReplayServer {
  /** the version served: set `file` before each cycle */
  state: { file: string };
  base: string;
  close(): Promise<void>;
}

/**
 * Serves whichever recorded version is current; `wrap` turns the recorded file into the HTTP body for a request (null:
 * the upstream has no such path, a 404).
 */
export async function replayServer(
  seq: string,
  wrap: (raw: Buffer, url: URL, file: string) => Buffer | null,
): Promise<ReplayServer> {
  const state = { file: '0001.json' };
  const server = http.createServer((req, res) => {
    const body = wrap(versionBytes(seq, state.file), new URL(req.url ?? '/', 'http://x'), state.file);
    if (body === null) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { state, close, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** FPL's one registry row, its feed at the replay server's `/county.json`. */
export const fplRow = (base: string): string =>
  `id,utility,state,connector,url,interval_min,tier\nfpl,Florida Power & Light,FL,fpl,${base}/county.json,15,1\n`;

/** A pipeline over the registry `csv` in memory (state and published tree), for a replay's cycles. */
export async function memoryPipeline(csv: string, clock: Clock): Promise<{ p: Pipeline; mem: MemoryTreeWriter }> {
  const mem = new MemoryTreeWriter(clock());
  const p = await Pipeline.open({
    stateDir: ':memory:',
    outDir: '',
    sources: parseRegistry(csv).sources,
    clock,
    simulated: false,
    writer: (now) => {
      mem.now = now;
      return mem;
    },
  });
  return { p, mem };
}

/**
 * The archive's incident day files (Parquet) a memory tree holds, written under `dir` for DuckDB to read (the ETR
 * record reads them beside the live incidents, as publishHistoryTree does from the archive part on disk).
 */
export function archivedIncidentParquet(mem: MemoryTreeWriter, dir: string): string[] {
  const out: string[] = [];
  for (const [rel, f] of mem.files) {
    const day = /^api\/v1\/archive\/incidents\/(\d{4}-\d{2}-\d{2})\.parquet$/.exec(rel)?.[1];
    if (!day) continue;
    out.push(path.join(dir, `${day}.parquet`));
    fs.writeFileSync(out.at(-1)!, f.body);
  }
  return out.sort();
}

/** A published document's `data`, from the in-memory tree. */
export const docOf = (mem: MemoryTreeWriter, rel: string) => JSON.parse(mem.files.get(rel)!.body.toString('utf8')).data;

/** A record of the LG&E/KU sequences: the scraper's per-outage flattening of Kubra cluster tiles. */
interface KubraRec {
  id: string;
  etr: string;
  cause: string;
  custAffected: number;
  crewStatus: string | null;
  startTime: string;
  latitude: number;
  longitude: number;
}

/**
 * A replayServer wrap for the LG&E/KU Kubra sequences: the recorded outages served back as Kubra's own answers (the
 * currentState, the configuration, the report, and quadkey-addressed cluster tiles sharded by {qkh}, clustered above
 * zoom 10, points as encoded polylines).
 */
export function kubraTiles(raw: Buffer, url: URL): Buffer {
  type Rec = KubraRec;
  const recs = JSON.parse(raw.toString('utf8')) as Rec[];
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  if (url.pathname.endsWith('/currentState'))
    return json({
      stormcenterDeploymentId: 'd1',
      data: { interval_generation_data: 'data/g0', cluster_interval_generation_data: 'cluster-data/{qkh}/g1/g2' },
    });
  if (url.pathname.includes('/configuration/'))
    return json({
      config: {
        reports: [{ id: 'county', type: 'county' }],
        layers: { data: { interval_generation_data: [{ id: 'cluster-1', type: 'CLUSTER_LAYER_1' }] } },
      },
    });
  if (url.pathname.endsWith('_report.json'))
    return json({
      file_data: {
        areas: [],
        totals: { cust_a: { val: recs.reduce((s, r) => s + r.custAffected, 0) }, cust_s: 1_000_000 },
      },
    });
  const q = /\/public\/cluster-1\/([0-3]+)\.json$/.exec(url.pathname)?.[1] ?? '';
  const shard = /cluster-data\/(\d{3})\//.exec(url.pathname)?.[1];
  if (shard !== q.slice(-3).split('').reverse().join('')) return json({ error: 'wrong shard' });
  const inside = recs.filter((r) => quadkeyFor(r.longitude, r.latitude, q.length) === q);
  const rec = (r: Rec) => ({
    id: `x-${r.id}`,
    desc: {
      cluster: false,
      inc_id: r.id,
      cust_a: { val: r.custAffected },
      etr: r.etr,
      start_time: r.startTime,
      cause: { 'EN-US': r.cause },
      crew_status: r.crewStatus,
    },
    geom: { p: [polyline.encode([[r.latitude, r.longitude]])] },
  });
  if (q.length >= 11) return json({ file_data: inside.map(rec) });
  const groups = new Map<string, Rec[]>();
  for (const r of inside)
    groups.set(quadkeyFor(r.longitude, r.latitude, q.length + 1), [
      ...(groups.get(quadkeyFor(r.longitude, r.latitude, q.length + 1)) ?? []),
      r,
    ]);
  return json({
    file_data: [...groups.values()].map((g) =>
      g.length === 1
        ? rec(g[0])
        : {
            desc: { cluster: true, n_out: g.length, cust_a: { val: g.reduce((s, r) => s + r.custAffected, 0) } },
            geom: { p: [polyline.encode([[g[0].latitude, g[0].longitude]])] },
          },
    ),
  });
}

/** PG&E's point recordings are the layer's features flattened by jq: served back in the query (f=json) shape, paged. */
export function arcgisPages(raw: Buffer, url: URL): Buffer {
  const records = JSON.parse(raw.toString('utf8')) as Array<Record<string, unknown>>;
  const offset = Number(url.searchParams.get('resultOffset') ?? 0);
  const count = Number(url.searchParams.get('resultRecordCount') ?? 1000);
  const page = records.slice(offset, offset + count).map(({ geometry_x: _x, geometry_y: _y, ...attributes }) => ({
    attributes,
    geometry: { x: attributes.OUTAGE_LONGITUDE as number, y: attributes.OUTAGE_LATITUDE as number },
  }));
  return Buffer.from(JSON.stringify({ features: page, exceededTransferLimit: offset + count < records.length }));
}
