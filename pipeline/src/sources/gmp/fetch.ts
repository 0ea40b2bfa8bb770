// Green Mountain Power fetch: one GET of the town list, its JSON returned as is (the whole chain: a 304 with the
// snapshot held is UNCHANGED, not re-parsed).
import { readHead, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/api\/v2\/outages\/incidents\/towns\/?$/i;

export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url)))
    throw new SourceError(
      'config',
      `Green Mountain Power url must be the town list, https://api.greenmountainpower.com/api/v2/outages/incidents/towns?all=true; got ${url}`,
    );
  return readHead(ctx, url);
}
