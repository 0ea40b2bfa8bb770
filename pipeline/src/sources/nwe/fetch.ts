// NorthWestern Energy fetch: one GET of get-outage-map-data; its `d` member is JSON text, parsed a second time here.
import { readHead, UNCHANGED, type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { innerOf } from './schema.ts';

const PATH = /^\/get-outage-map-data\/?$/i;

/** The outage list inside the answer's `d` (normalize reads it, schema.ts), or UNCHANGED on a 304 while held. */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `NorthWestern Energy url must be https://northwesternenergy.com/get-outage-map-data; got ${url}`,
    );
  }
  // The one request is the whole chain: a 304 means nothing changed, and the body is not even parsed.
  const answer = await readHead(ctx, url);
  return answer === UNCHANGED ? answer : innerOf(answer);
}
