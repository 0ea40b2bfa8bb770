// ArcGIS fetch: pages through `query` (resultOffset/resultRecordCount) in WGS84 (outSR=4326) until the server
// stops saying exceededTransferLimit. Options: where (default 1=1), page_size (default 1000), max_pages (100),
// order_by (orderByFields: a stable order for offset paging), format (`geojson` for f=geojson, default f=json).
// The pages share the poll's budget (max_poll_bytes, max_records): 100 pages of 1000 is the default record budget.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { arcgisError, readPage, type ArcgisRaw } from './schema.ts';

export function queryUrl(layerUrl: string, options: Record<string, unknown>, offset: number): string {
  const base = layerUrl.replace(/\/query\/?(\?.*)?$/, '').replace(/\/+$/, '');
  const u = new URL(`${base}/query`);
  u.searchParams.set('where', typeof options.where === 'string' ? options.where : '1=1');
  u.searchParams.set('outFields', '*');
  u.searchParams.set('returnGeometry', 'true');
  u.searchParams.set('outSR', '4326');
  u.searchParams.set('resultOffset', String(offset));
  u.searchParams.set('resultRecordCount', String(pageSize(options)));
  if (typeof options.order_by === 'string') u.searchParams.set('orderByFields', options.order_by);
  // f=geojson where a layer's own map asks for it (DTE's outage areas); both answers read the same.
  u.searchParams.set('f', options.format === 'geojson' ? 'geojson' : 'json');
  return u.href;
}

const pageSize = (o: Record<string, unknown>) =>
  typeof o.page_size === 'number' && o.page_size > 0 ? o.page_size : 1000;

export async function fetch(ctx: FetchContext): Promise<ArcgisRaw> {
  const features: ArcgisRaw['features'] = [];
  const maxPages = typeof ctx.source.options.max_pages === 'number' ? ctx.source.options.max_pages : 100;
  for (let page = 0; page < maxPages; page += 1) {
    const raw = await ctx.http.getJson(queryUrl(ctx.source.url, ctx.source.options, features.length), ctx.priority);
    const err = arcgisError(raw);
    if (err) throw new SourceError('http_status', `ArcGIS error ${err.code ?? ''}: ${err.message ?? 'unknown'}`);
    const data = readPage(raw, 'ArcGIS query');
    // Charged before they are kept: a layer that pages without end fails at the poll's record budget (budget.ts).
    ctx.http.records(data.features.length, `ArcGIS layer ${ctx.source.url}`);
    for (const f of data.features) features.push(f);
    if (!data.exceededTransferLimit || data.features.length === 0) return { features };
  }
  throw new SourceError(
    'too_large',
    `ArcGIS layer still had more features after ${maxPages} pages; raise options.max_pages`,
  );
}
