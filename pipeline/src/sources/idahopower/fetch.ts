// Idaho Power fetch: one GET of GetCurrentOutageInformation on the apiedge host.
import type { FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/api\/Outage\/GetCurrentOutageInformation\/?$/i;

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/** The answer as Idaho Power sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(pathOf(url) ?? '')) {
    throw new SourceError(
      'config',
      `Idaho Power url must be https://apiedge.idahopower.com/api/Outage/GetCurrentOutageInformation; got ${url}`,
    );
  }
  return ctx.http.getJson(url, ctx.priority);
}
