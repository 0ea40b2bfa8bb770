// PGE fetch: one POST of the getOutagesByCounty GraphQL query to apix.portlandgeneral.com/pge-graphql.
import { type FetchContext, urlPath } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /^\/pge-graphql\/?$/i;

/**
 * The map's own query, without a selection: the field answers JSON (sometimes as JSON text), and a GraphQL server
 * refuses a selection on a JSON scalar. The peer's working adapter sends it this way, with empty variables.
 */
export const OUTAGES_QUERY =
  'query getOutagesByCounty($params: OutageByCountyParams) { getOutagesByCounty(params: $params) }';

/** The answer as is: a POST is never conditional, so there is no UNCHANGED here. */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `PGE url must be the GraphQL endpoint {host}/pge-graphql, e.g. https://apix.portlandgeneral.com/pge-graphql; got ${url}`,
    );
  }
  const answer = await ctx.http.get(url, ctx.priority, {
    method: 'POST',
    body: JSON.stringify({ query: OUTAGES_QUERY, variables: {} }),
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    idempotent: true, // a GraphQL query, not a mutation: safe to retry
  });
  return parseJson(url, answer.body);
}
