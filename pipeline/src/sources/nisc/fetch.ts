// NISC fetch: one GET of summary.json (a 304 with the snapshot held is UNCHANGED, not re-parsed); config.json beside
// it too when the summary has no county region set and its outages carry only x/y offsets that its map extent decodes.
import { readHead, UNCHANGED, type FetchContext } from '../connector.ts';
import { isObj } from '../checks.ts';
import { isCountySet, type NiscRaw, type NiscRegionSet } from './schema.ts';

/** config.json lives beside summary.json (`…/Hosted_Outage_Map/config.json`), as the hosted map itself reads it. */
export const configUrl = (summaryUrl: string): string => new URL('config.json', summaryUrl).href;

export async function fetch(ctx: FetchContext): Promise<NiscRaw | typeof UNCHANGED> {
  const summary = await readHead(ctx, ctx.source.url);
  if (summary === UNCHANGED) return UNCHANGED;
  if (!needsExtent(summary)) return { summary };
  return { summary, config: await ctx.http.getJson(configUrl(ctx.source.url), ctx.priority) };
}

/**
 * Whether the summary's outages can only be placed through the map extent: no county region set, and an outage with
 * x/y but no outagePoint. Read loosely: a summary of another shape is normalize's to report, naming the field.
 */
function needsExtent(summary: unknown): boolean {
  if (!isObj(summary) || !Array.isArray(summary.outages)) return false;
  const sets = Array.isArray(summary.regionDataSets) ? (summary.regionDataSets as unknown[]) : [];
  if (sets.some((d) => isObj(d) && typeof d.id === 'string' && isCountySet(d as unknown as NiscRegionSet)))
    return false;
  return summary.outages.some((o) => isObj(o) && !o.outagePoint && typeof o.x === 'number');
}
