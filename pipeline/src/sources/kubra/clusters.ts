// Kubra cluster layer: individual outages live in map tiles addressed by quadkey
// (`<cluster data path>/public/<CLUSTER_LAYER id>/<quadkey>.json`). A tile lists outages, or clusters of them
// (`desc.cluster: true`) that resolve at the next zoom; points are Google encoded polylines in `geom.p`.
// We walk from root quadkeys covering the service area down to max_zoom (default 14): a tile holding a cluster is
// replaced by its four children, so every outage is read from exactly one tile (fgregg/kubra's walk).
import polyline from '@mapbox/polyline';
import { z } from 'zod';
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

export const clusterRecordSchema = z
  .object({
    id: z.string().optional(),
    desc: z
      .object({
        cluster: z.boolean().optional(),
        n_out: z.number().nullable().optional(),
        inc_id: z.union([z.string(), z.number()]).nullable().optional(),
        cust_a: z
          .object({
            val: z.number().nullable().optional(),
            masked: z.boolean().optional(),
            mask: z.number().nullable().optional(),
          })
          .loose()
          .nullable()
          .optional(),
        etr: z.string().nullable().optional(),
        start_time: z.string().nullable().optional(),
        cause: z
          .union([z.string(), z.record(z.string(), z.string())])
          .nullable()
          .optional(),
        crew_status: z
          .union([z.string(), z.record(z.string(), z.string())])
          .nullable()
          .optional(),
      })
      .loose(),
    geom: z
      .object({ p: z.array(z.string()).optional() })
      .loose()
      .optional(),
  })
  .loose();
export const tileSchema = z.object({ file_data: z.array(clusterRecordSchema) }).loose();
export type ClusterRecord = z.infer<typeof clusterRecordSchema> & { lat: number | null; lon: number | null };

/** Tile x/y of a point at a zoom (Web Mercator), and its quadkey. */
export function quadkeyFor(lon: number, lat: number, zoom: number): string {
  const n = 2 ** zoom;
  const x = Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  const y = Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
  let q = '';
  for (let i = zoom; i > 0; i--) {
    const mask = 1 << (i - 1);
    q += String((x & mask ? 1 : 0) + (y & mask ? 2 : 0));
  }
  return q;
}

/** Root quadkeys covering a [west, south, east, north] box at a zoom. */
export function quadkeysForBbox(bbox: number[], zoom: number): string[] {
  const [w, s, e, n] = bbox;
  const keys = new Set<string>();
  const step = 360 / 2 ** zoom / 2;
  for (let lon = w; lon <= e + step; lon += step)
    for (let lat = s; lat <= n + step; lat += step / 2) keys.add(quadkeyFor(Math.min(lon, e), Math.min(lat, n), zoom));
  return [...keys].sort();
}

/** Some deployments shard tiles: `{qkh}` is the quadkey's last three digits, reversed. */
export function tileUrl(origin: string, clusterPath: string, layer: string, quadkey: string): string {
  const path = clusterPath.replace(/^\/+/, '').replace('{qkh}', quadkey.slice(-3).split('').reverse().join(''));
  return `${origin}/${path}/public/${layer}/${quadkey}.json`;
}

export function clusterLayerId(configuration: unknown): string | null {
  const layers =
    (
      configuration as {
        config?: { layers?: { data?: { interval_generation_data?: Array<{ id?: string; type?: string }> } } };
      }
    ).config?.layers?.data?.interval_generation_data ?? [];
  return (
    layers.find((l) => typeof l.type === 'string' && l.type.startsWith('CLUSTER_LAYER') && typeof l.id === 'string')
      ?.id ?? null
  );
}

/** A record's point: the first position of `geom.p`, else none. */
export function pointOf(r: { geom?: { p?: string[] } }): { lat: number | null; lon: number | null } {
  const first = r.geom?.p?.[0] ? polyline.decode(r.geom.p[0])[0] : undefined;
  return first ? { lat: first[0], lon: first[1] } : { lat: null, lon: null };
}

/** The walk's root tiles: options.quadkeys, else the tiles covering options.bbox at options.min_zoom (default 7). */
function rootsOf(o: Record<string, unknown>): string[] {
  const roots = Array.isArray(o.quadkeys)
    ? (o.quadkeys as unknown[]).map(String)
    : Array.isArray(o.bbox)
      ? quadkeysForBbox(o.bbox as number[], typeof o.min_zoom === 'number' ? o.min_zoom : 7)
      : [];
  if (roots.length === 0)
    throw new SourceError(
      'config',
      'Kubra incidents need options.quadkeys (root tiles) or options.bbox [west, south, east, north]',
    );
  return [...new Set(roots)];
}

/**
 * One tile's answer: a tile holding a cluster (above max zoom) adds its four children to `next` and keeps nothing,
 * because the children list its single outages again beside the cluster's. Ids cannot tell the copies apart: real
 * tiles number their records per tile (`11-0`) and most carry no inc_id. Other tiles' records go to `found`.
 */
function readTile(q: string, raw: unknown, maxZoom: number, next: Set<string>, found: Map<string, ClusterRecord>) {
  const tile = tileSchema.safeParse(raw);
  if (!tile.success)
    throw new SourceError('schema', `Kubra tile ${q} has an unexpected shape: ${tile.error.issues[0].message}`);
  if (q.length < maxZoom && tile.data.file_data.some((r) => r.desc.cluster)) {
    for (const d of ['0', '1', '2', '3']) next.add(q + d);
    return;
  }
  for (const r of tile.data.file_data) {
    const key = r.desc.inc_id === null || r.desc.inc_id === undefined ? null : String(r.desc.inc_id);
    if (key !== null && found.has(key)) continue;
    found.set(key ?? `${q}/${found.size}`, { ...r, ...pointOf(r) });
  }
}

export async function walkClusters(
  ctx: FetchContext,
  origin: string,
  clusterPath: string,
  layer: string,
): Promise<ClusterRecord[]> {
  const o = ctx.source.options;
  const maxZoom = typeof o.max_zoom === 'number' ? o.max_zoom : 14;
  const maxTiles = typeof o.max_tiles === 'number' ? o.max_tiles : 2000;
  const found = new Map<string, ClusterRecord>();
  let queue = rootsOf(o);
  let fetched = 0;
  while (queue.length) {
    fetched += queue.length;
    if (fetched > maxTiles)
      throw new SourceError(
        'too_large',
        `Kubra cluster walk passed ${maxTiles} tiles; raise options.max_tiles or narrow options.quadkeys`,
      );
    const tiles = await Promise.all(
      queue.map(async (q) => ({
        q,
        raw: await ctx.http.getJsonOrNull(tileUrl(origin, clusterPath, layer, q), ctx.priority),
      })),
    );
    const next = new Set<string>();
    for (const { q, raw } of tiles) {
      if (raw === null) continue;
      const before = found.size;
      readTile(q, raw, maxZoom, next, found);
      // Every tile's bytes count against the poll's budget as read; the records it adds, here (budget.ts).
      ctx.http.records(found.size - before, `Kubra cluster layer ${layer}`);
    }
    queue = [...next];
  }
  return [...found.values()];
}
