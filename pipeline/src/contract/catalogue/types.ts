// The shapes of the catalogue: an endpoint (prebuilt or function-answered), a function-only route, a parameter.
import type { Deprecation } from '../v1-headers.ts';

export type Format = 'json' | 'csv' | 'geojson' | 'txt' | 'rss' | 'atom' | 'feedjson' | 'png' | 'parquet';
export type CacheClass = 'live' | 'history' | 'static' | 'immutable';

export interface QueryParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
}

export interface Endpoint {
  id: string;
  /** path template, OpenAPI style: /api/v1/live/counties/{fips} */
  path: string;
  /** prebuilt formats (answered formats when `servedBy` is `function`); the first is served when `format` is absent */
  formats: Format[];
  cache: CacheClass;
  /** the path parameter the writer enumerates, if any */
  key?: 'fips';
  summary: string;
  description: string;
  /** name of the response schema in components.schemas */
  schema: string;
  /** query parameters answered by the function layer (not prebuilt) */
  functionParams?: QueryParam[];
  /** values of the `table` query parameter: a prebuilt file each; the first is served when `table` is absent */
  tables?: readonly string[];
  /**
   * `function`: nothing is prebuilt, the function layer answers every request (from internal `_` files), and the
   * host configs route the path there; the public URL, formats, tables and cache class are unchanged
   */
  servedBy?: 'function';
  /** still answered, with Deprecation/Sunset headers and `deprecated: true` in OpenAPI, until the sunset */
  deprecated?: Deprecation;
}

/** Routes only the function layer answers (nothing prebuilt): the 410, accounts, keys and alert rules. */
export interface FunctionEndpoint {
  id: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI-style template: /api/v1/rules/{id} */
  path: string;
  summary: string;
  description: string;
  /** the success status */
  status: number;
  /** response schema (components.schemas), null for an empty body */
  schema: string | null;
  /** request body schema (components.schemas) */
  body?: string;
  /** needs `Authorization: Bearer <API key>` */
  auth?: boolean;
  query?: QueryParam[];
  /** as on Endpoint: Deprecation/Sunset headers and `deprecated: true` until the sunset */
  deprecated?: Deprecation;
  /** not an account endpoint: `retired` (the 410) or `ops` (/healthz) — no account rate limit, no input errors */
  kind?: 'retired' | 'ops';
}
