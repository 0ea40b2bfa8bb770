// ODIN fetch: one GET of the OpenDataSoft export endpoint, which answers the whole current data set (the paged
// `/records` API stops at 10,000 records, which a big storm exceeds). That GET is the whole chain: a 304 with the
// snapshot held is UNCHANGED, and the (large) export is not parsed again.
import { SourceError } from '../../errors.ts';
import { readHead, type FetchContext } from '../connector.ts';

/** The fields normalize reads: asking only for them leaves out each record's county MultiPolygon (~4 kB). */
export const ODIN_FIELDS = ['utility_id', 'name', 'communitydescriptor', 'county', 'state', 'metersaffected'] as const;

/** The export URL to request: the registry's, with `select` added unless the row sets its own. */
export function exportUrl(url: string): string {
  const u = new URL(url);
  if (/\/records\/?$/.test(u.pathname)) {
    throw new SourceError(
      'config',
      `ODIN url ${url} is the paged records API, which stops at 10,000 records; use the export endpoint …/datasets/<dataset>/exports/json`,
    );
  }
  if (!/\/exports\/json\/?$/.test(u.pathname)) {
    throw new SourceError('config', `ODIN url ${url} is not a JSON export; use …/datasets/<dataset>/exports/json`);
  }
  if (!u.searchParams.has('select')) u.searchParams.set('select', ODIN_FIELDS.join(','));
  return u.href;
}

export async function fetch(ctx: FetchContext): Promise<unknown> {
  return readHead(ctx, exportUrl(ctx.source.url));
}
