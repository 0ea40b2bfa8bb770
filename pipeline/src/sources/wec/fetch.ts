// WEC fetch: one GET of OutageEventJSON, kept with the answer's HTTP Date.
import type { FetchContext } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';
import type { WecRaw } from './schema.ts';

export async function fetch(ctx: FetchContext): Promise<WecRaw> {
  const { url } = ctx.source;
  if (!/\/outagesummary\/view\/OutageEventJSON$/i.test(new URL(url).pathname)) {
    throw new SourceError(
      'config',
      `WEC url must be {site}/outagesummary/view/OutageEventJSON, e.g. https://www.we-energies.com/outagesummary/view/OutageEventJSON; got ${url}`,
    );
  }
  const answer = await ctx.http.get(url, ctx.priority);
  // The display times have no year: the upstream's own clock (HTTP Date) supplies it, so a replayed raw reads the same.
  const date = answer.headers.date ? Date.parse(answer.headers.date) : NaN;
  return { captured_at: Number.isNaN(date) ? null : new Date(date).toISOString(), events: parseJson(url, answer.body) };
}
