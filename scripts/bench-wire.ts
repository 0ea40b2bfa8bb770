// Bytes on the wire (part of `npm run bench`; issue 28 part 3): the map, the summary, the sources, the largest
// county's incidents and the OpenAPI document through the local server over a real socket, as identity, brotli and
// gzip; and what the precompressed siblings cost the storm cycle: the objects it compressed, and the CPU and wall
// time of compressing them again here as a publish does (ENCODE_CONCURRENCY at once on the thread pool; a cycle does
// it beside the rendering).
import http from 'node:http';
import fs from 'node:fs';
import { startServer } from '../pipeline/src/serve/server.ts';
import type { PublishStats } from '../pipeline/src/publish/tree-writer.ts';
import { objectPath, readManifest } from '../pipeline/src/publish/tree-parts.ts';
import PQueue from 'p-queue';
import { ENCODE_CONCURRENCY, EFFORT, effortFor, encode, type Effort } from '../pipeline/src/publish/precompress.ts';
import { CODINGS } from '../pipeline/src/contract/encodings.ts';

type Row = { metric: string; value: string | number; target: string };

/** The bytes a GET puts on the wire (the body as sent: node:http does not decode). */
function wireBytes(url: string, acceptEncoding: string): Promise<{ bytes: number; coding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': acceptEncoding } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: HTTP ${res.statusCode}`));
          else resolve({ bytes, coding: String(res.headers['content-encoding'] ?? 'identity') });
        });
      })
      .on('error', reject);
  });
}

const n = (x: number) => x.toLocaleString('en-US');
/** CPU of the whole process (the thread pool included) and wall time of `fn`, in ms. */
async function cost(fn: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await fn();
  const d = process.cpuUsage(cpu);
  return { cpu: Math.round((d.user + d.system) / 1000), wall: Math.round(performance.now() - t) };
}

/** `stormAt`: the storm cycle's publish time (its files carry it as generated_at); `storm`: its publish stats. */
export async function benchWire(out: string, stormAt: Date, storm: PublishStats): Promise<Row[]> {
  const files = readManifest(out)!.files;
  const incidents = Object.keys(files)
    .filter((f) => /^api\/v1\/live\/counties\/\d{5}\.incidents\.json$/.test(f))
    .sort((a, b) => files[b].bytes - files[a].bytes)[0];
  const answers = [
    '/api/v1/live/map',
    '/api/v1/live/summary',
    '/api/v1/live/sources',
    `/${incidents.replace(/\.incidents\.json$/, '/incidents')}`,
    '/api/v1/openapi.json',
  ];
  const server = await startServer({ outDir: out, port: 0 });
  const rows: Row[] = [];
  try {
    for (const url of answers) {
      const sizes: number[] = [];
      for (const accept of ['identity', 'br', 'gzip']) {
        const got = await wireBytes(`${server.url}${url}`, accept);
        if (got.coding !== accept) throw new Error(`GET ${url} with Accept-Encoding ${accept} came as ${got.coding}`);
        sizes.push(got.bytes);
      }
      rows.push({
        metric: `bytes on the wire ${url}: identity / br / gzip (br % of identity)`,
        value: `${sizes.map(n).join(' / ')} (${((100 * sizes[1]) / sizes[0]).toFixed(1)} %)`,
        target: '',
      });
    }
  } finally {
    await server.close();
  }
  // The storm cycle's precompressed objects, compressed again on the thread pool at their efforts.
  const at = stormAt.toISOString();
  const objects = new Map<string, Effort>();
  for (const [rel, e] of Object.entries(files))
    if (e.generated_at === at && e.encodings && !objects.has(e.object)) objects.set(e.object, effortFor(rel));
  const bodies = [...objects].map(([o, effort]) => ({ body: fs.readFileSync(objectPath(out, o)), effort }));
  const queue = new PQueue({ concurrency: ENCODE_CONCURRENCY }); // as the publish runs them
  const spent = [];
  for (const c of CODINGS)
    spent.push(await cost(() => Promise.all(bodies.map((b) => queue.add(() => encode(b.body, c, b.effort))))));
  const p = storm.precompressed ?? { objects: 0, bytes: 0, br: 0, gzip: 0 };
  const mb = (x: number) => (x / 1e6).toFixed(1);
  rows.push(
    {
      metric: 'storm cycle precompressed: objects / MB identity → br / gzip',
      value: `${n(p.objects)} / ${mb(p.bytes)} → ${mb(p.br)} / ${mb(p.gzip)}`,
      target: '',
    },
    {
      metric: `storm cycle precompression, CPU / wall (ms): brotli ${EFFORT.entry.br}/${EFFORT.keyed.br}; gzip ${EFFORT.entry.gzip}/${EFFORT.keyed.gzip} (entry points/keyed files)`,
      value: spent.map((s) => `${n(s.cpu)} / ${n(s.wall)}`).join('; '),
      target: '',
    },
  );
  return rows;
}
