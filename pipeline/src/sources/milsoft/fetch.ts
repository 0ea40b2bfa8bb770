// Milsoft fetch: GET {base}/data/boundaries.json or outages.json (the url's file name decides), plus the sibling
// outageSummary.json for the headline when the site serves it.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import type { MilsoftRaw } from './schema.ts';

const FILE = /\/(boundaries|outages)(\.json)?$/;

/** Which data file a registry url names, and the summary url beside it (same folder, same extension). */
export function milsoftUrls(url: string): { file: 'boundaries' | 'outages'; summaryUrl: string } {
  const u = new URL(url);
  const m = FILE.exec(u.pathname);
  if (!m) {
    throw new SourceError('config', `Milsoft url must end in /data/boundaries.json or /data/outages.json, got ${url}`);
  }
  return { file: m[1] as 'boundaries' | 'outages', summaryUrl: new URL(`outageSummary${m[2] ?? ''}`, u).href };
}

export async function fetch(ctx: FetchContext): Promise<MilsoftRaw> {
  const { file, summaryUrl } = milsoftUrls(ctx.source.url);
  const [data, summary] = await Promise.all([
    ctx.http.getJson(ctx.source.url, ctx.priority),
    optionalSummary(ctx, summaryUrl),
  ]);
  return file === 'boundaries' ? { summary, boundaries: data } : { summary, outages: data };
}

/** The summary is optional: 403/404, or an HTML page served in its place (single-page sites answer 200), is absent. */
async function optionalSummary(ctx: FetchContext, url: string): Promise<unknown> {
  try {
    return await ctx.http.getJsonOrNull(url, ctx.priority);
  } catch (err) {
    if (err instanceof SourceError && err.reason === 'bad_body') return null;
    throw err;
  }
}
