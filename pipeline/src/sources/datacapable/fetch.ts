// DataCapable fetch: the events list always; the county count answer too when options.county_counts is true.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import type { DataCapableRaw } from './schema.ts';

/** `…/map/events` → `…/map/events/count?types=COUNTY` (the per-county out/served table of the same tenant). */
export function countUrl(eventsUrl: string): string {
  const u = new URL(eventsUrl);
  if (!/\/map\/events\/?$/.test(u.pathname)) {
    throw new SourceError(
      'config',
      `DataCapable url must end in /map/events to derive the county count URL, got ${eventsUrl}`,
    );
  }
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/count`;
  u.search = '?types=COUNTY';
  return u.href;
}

export async function fetch(ctx: FetchContext): Promise<DataCapableRaw> {
  const wanted = ctx.source.options.county_counts ?? false;
  if (typeof wanted !== 'boolean') {
    throw new SourceError('config', `options.county_counts must be true or false, got ${JSON.stringify(wanted)}`);
  }
  if (!wanted) return { events: await ctx.http.getJson(ctx.source.url, ctx.priority) };
  const [events, counties] = await Promise.all([
    ctx.http.getJson(ctx.source.url, ctx.priority),
    ctx.http.getJson(countUrl(ctx.source.url), ctx.priority),
  ]);
  return { events, counties };
}
