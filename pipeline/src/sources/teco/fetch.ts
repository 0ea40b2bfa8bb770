// Tampa Electric fetch: one POST of an Elasticsearch query to outage-tiles, every incident inside the territory box.
import { type FetchContext, urlPath } from '../connector.ts';
import { parseJson } from '../parse.ts';
import { SourceError } from '../../errors.ts';

const PATH = /\/api\/v1\/outage-tiles\/?$/i;
/** [west, south, east, north]: Hillsborough, Polk, Pasco and Pinellas with a margin. */
export const DEFAULT_BBOX: [number, number, number, number] = [-82.9, 27.5, -81.4, 28.6];
/** Elasticsearch's default result window: more hits than this need paging, which the map does not do either. */
const SIZE = 10_000;

/** options.bbox, checked: four numbers, west < east and south < north. */
export function bboxOf(option: unknown): [number, number, number, number] {
  if (option === undefined || option === null) return DEFAULT_BBOX;
  const ok =
    Array.isArray(option) &&
    option.length === 4 &&
    option.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    option[0] < option[2] &&
    option[1] < option[3];
  if (!ok) {
    throw new SourceError(
      'config',
      `options.bbox must be [west, south, east, north] in degrees, e.g. ${JSON.stringify(DEFAULT_BBOX)}; got ${JSON.stringify(option)}`,
    );
  }
  return option as [number, number, number, number];
}

/** The query the map sends: the box is required upstream; the sum aggregation is the utility's own total. */
export function queryBody(bbox: [number, number, number, number]): string {
  const [west, south, east, north] = bbox;
  return JSON.stringify({
    size: SIZE,
    track_total_hits: true,
    query: {
      bool: {
        filter: {
          geo_bounding_box: {
            polygonCenter: { top_left: { lat: north, lon: west }, bottom_right: { lat: south, lon: east } },
          },
        },
      },
    },
    aggs: { customerCountSum: { sum: { field: 'customerCount' } } },
  });
}

/** The answer as Tampa Electric sends it: normalize reads it as is (schema.ts). */
export async function fetch(ctx: FetchContext): Promise<unknown> {
  const { url, options } = ctx.source;
  if (!PATH.test(urlPath(url))) {
    throw new SourceError(
      'config',
      `Tampa Electric url must be {host}/api/v1/outage-tiles, e.g. https://outage-data-prod-hrcadje2h9aje9c9.a03.azurefd.net/api/v1/outage-tiles; got ${url}`,
    );
  }
  const answer = await ctx.http.get(url, ctx.priority, {
    method: 'POST',
    body: queryBody(bboxOf(options.bbox)),
    headers: { 'content-type': 'application/json' },
    idempotent: true, // a query of the map's outages: safe to retry
  });
  return parseJson(url, answer.body);
}
