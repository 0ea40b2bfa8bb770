// Idaho Power fetch: one GET of GetCurrentOutageInformation on the apiedge host.
import { type FetchContext, urlPath } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/api\/Outage\/GetCurrentOutageInformation\/?$/i;

/** The answer as Idaho Power sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `Idaho Power url must be https://apiedge.idahopower.com/api/Outage/GetCurrentOutageInformation; got ${url}`,
    );
  }
  return ctx.http.getJson(url, ctx.priority);
}
