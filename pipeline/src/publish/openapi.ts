// The OpenAPI 3.1 document, generated from the catalogue and the shared response schemas.
import {
  CATALOGUE,
  CACHE_CONTROL,
  CONTENT_TYPE,
  FUNCTION_ENDPOINTS,
  type Endpoint,
  type Format,
} from '../contract/catalogue.ts';
import { SCHEMAS } from '../contract/schemas.ts';
import { CITATION, dataNotice } from '../contract/notice.ts';
import { MAJOR_EVENT_PCT, HARDEN_AT_PCT } from '../state/rules.ts';
import { EMISSION } from '../contract/events.ts';
import { CSV_NOTE } from '../contract/csv.ts';
import { FEED_NOTE } from './feeds.ts';
import { REPORT_FIRST_YEAR } from '../history/reports.ts';
import { REPORT_RULES } from './reports.ts';
import { MAX_RULES_PER_ACCOUNT, MAX_TARGETS_PER_ACCOUNT } from '../accounts/rule-channels.ts';
import { ACCOUNT_429_NOTES, ACCOUNT_SCHEMAS, ACCOUNTS_DESCRIPTION, webhooksSection } from '../accounts/openapi.ts';
import { checkDeprecation, DEPRECATION_NOTICE_DAYS, type Deprecation } from '../contract/v1-headers.ts';
import { limitClass, rateLimitsFromEnv, type LimitClass } from '../serve/rate-limit.ts';
import { FUNCTION_DEFAULTS } from '../serve/function-pool.ts';
import { FIRST_YEAR, YEARS_AHEAD } from '../contract/dates.ts';
import { MAX_RETIRED_SECRETS } from '../accounts/signing-secrets.ts';
import { checksQuery, IGNORED_QUERY_NAMES } from '../contract/query-params.ts';

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

const commonHeaders = {
  'X-Request-Id': { description: 'Unique id of this request.', schema: { type: 'string' } },
  'X-API-Version': { description: 'Always `1` on v1.', schema: { type: 'string', const: '1' } },
  'X-Data-Notice': {
    description: 'Where the data comes from, and the request to cite and link back.',
    schema: { type: 'string' },
  },
  ETag: { description: 'Content hash; send If-None-Match for a 304.', schema: { type: 'string' } },
  'Cache-Control': { description: 'Short for live data, long for history.', schema: { type: 'string' } },
};

const DEPRECATION_HEADERS = {
  Deprecation: {
    description: 'RFC 9745: when this operation was deprecated, as `@<unix seconds>`.',
    schema: { type: 'string' },
  },
  Sunset: { description: 'RFC 8594: the HTTP-date after which it may stop answering.', schema: { type: 'string' } },
  Link: { description: '`<…>; rel="deprecation"`: where the replacement is documented.', schema: { type: 'string' } },
};

/** `deprecated: true` and the note, for an operation whose catalogue entry is deprecated (dates checked here). */
function deprecation(id: string, d: Deprecation | undefined): { deprecated?: true; note: string } {
  if (!d) return { note: '' };
  checkDeprecation(id, d);
  return {
    deprecated: true,
    note: ` **Deprecated** since ${d.since.slice(0, 10)}; answers until ${d.sunset.slice(0, 10)}. Replacement: ${d.link}.`,
  };
}

/** spec: Limits — the 429 of the function layer's per-client token buckets (documented defaults, env-configurable). */
const LIMIT_DEFAULTS = rateLimitsFromEnv({});
function rateLimitResponse(cls: LimitClass, extra = '') {
  const b = LIMIT_DEFAULTS[cls];
  return {
    description: `\`rate_limited\`: more than ${b.perMinute} ${cls === 'query' ? 'filtered queries' : 'account requests'} a minute (bursts of ${b.burst}) from this client, by default; wait \`Retry-After\` seconds.${extra}`,
    headers: {
      'Retry-After': {
        description: 'Whole seconds until the next request is allowed.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
}

/** issue 37: the 503 of a function answer past its per-request budget (function-pool.ts; documented defaults). */
function busyResponse() {
  const s = Math.ceil(FUNCTION_DEFAULTS.budgetMs / 1000);
  return {
    description: `\`busy\`: the function layer would not answer within its per-request budget (by default ${s} s waiting for one of its ${FUNCTION_DEFAULTS.threads} threads, then ${s} s on it; more than ${FUNCTION_DEFAULTS.maxWaiting} waiting answer at once). A query past the budget is stopped. Wait \`Retry-After\` seconds, or narrow the query.`,
    headers: {
      'Retry-After': {
        description: 'Whole seconds to wait before asking again.',
        schema: { type: 'integer', minimum: 1 },
      },
    },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
}

/** What the strict date parser (contract/dates.ts) refuses, for the 400 of an endpoint with date parameters. */
const DATES_400 = `A date or time that is not a real calendar date (\`2026-02-30\`), a time without its zone, or a year outside ${FIRST_YEAR} to the current year + ${YEARS_AHEAD} is a 400 \`invalid_parameter\` naming the parameter.`;

/** spec: Errors — the 400 of a query name the operation does not take (contract/query-params.ts). */
export const UNKNOWN_PARAMETER_NOTE = `A query parameter this operation does not take is a 400 \`unknown_parameter\`: \`param\` names the first, \`allowed\` lists the ones it takes (those documented here). ${IGNORED_QUERY_NAMES.map((n) => `\`${n}\``).join(' and ')} (cache busters) are ignored everywhere.`;

/** An operation's 400 with the unknown_parameter note (the only 400 of an operation that has no other). */
function withUnknownParameter(existing: unknown) {
  const before = (existing as { description?: string } | undefined)?.description;
  return errorResponse(before ? `${before} ${UNKNOWN_PARAMETER_NOTE}` : UNKNOWN_PARAMETER_NOTE);
}

/** What a text format promises about upstream text (issue 24): CSV cells never formulas, feed text never markup. */
const textFormatNote = (f: Format): { description?: string } =>
  f === 'csv' ? { description: CSV_NOTE } : f === 'rss' || f === 'atom' ? { description: FEED_NOTE } : {};

function operation(e: Endpoint) {
  const params: Array<Record<string, unknown>> = [];
  if (e.key === 'fips')
    params.push({
      name: 'fips',
      in: 'path',
      required: true,
      description: '5-digit county FIPS code.',
      schema: { type: 'string', pattern: '^\\d{5}$' },
      example: '12086',
    });
  const pp: string[] = e.path.match(/\{(\w+)\}/g) ?? [];
  if (pp.includes('{year}'))
    params.push({
      name: 'year',
      in: 'path',
      required: true,
      description: `Report year, four digits (${REPORT_FIRST_YEAR} to the current year).`,
      schema: { type: 'string', pattern: '^\\d{4}$' },
      example: '2024',
    });
  if (pp.includes('{date}'))
    params.push({
      name: 'date',
      in: 'path',
      required: true,
      description: 'A finished UTC day, `YYYY-MM-DD` (listed in /api/v1/archive).',
      schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      example: '2026-09-01',
    });
  if (pp.includes('{state}'))
    params.push({
      name: 'state',
      in: 'path',
      required: true,
      description: 'Lower-case USPS state code (`tx`); an upper-case code is redirected (308) to it.',
      schema: { type: 'string', pattern: '^[a-z]{2}$' },
      example: 'tx',
    });
  if (pp.includes('{county}'))
    params.push({
      name: 'county',
      in: 'path',
      required: true,
      description: '5-digit county FIPS code of a county in `{state}`.',
      schema: { type: 'string', pattern: '^\\d{5}$' },
      example: '48201',
    });
  if (e.tables)
    params.push({
      name: 'table',
      in: 'query',
      required: false,
      description: `Which table (default ${e.tables[0]}).`,
      schema: { type: 'string', enum: e.tables, default: e.tables[0] },
    });
  params.push({
    name: 'format',
    in: 'query',
    required: false,
    description:
      e.formats.length > 1 ? `Response format (default ${e.formats[0]}).` : `Response format: ${e.formats[0]} only.`,
    schema: { type: 'string', enum: e.formats, default: e.formats[0] },
  });
  for (const p of e.functionParams ?? [])
    params.push({ name: p.name, in: 'query', required: false, description: p.description, schema: p.schema });
  const content: Record<string, unknown> = {};
  for (const f of e.formats) {
    const type = CONTENT_TYPE[f].split(';')[0];
    content[type] =
      f === 'png' || f === 'parquet'
        ? { schema: { type: 'string', contentMediaType: type } }
        : f === 'geojson'
          ? {
              schema: {
                type: 'object',
                description:
                  'RFC 7946 FeatureCollection with a `metadata` member (generated, url, title, count, notice).',
              },
            }
          : f === 'json' || f === 'feedjson'
            ? {
                schema:
                  e.schema === 'OpenApiDocument' ? { type: 'object' } : { $ref: `#/components/schemas/${e.schema}` },
              }
            : { schema: { type: 'string', ...textFormatNote(f) } };
  }
  const dep = deprecation(e.id, e.deprecated);
  const responses: Record<string, unknown> = {
    200: {
      description: `${e.summary}. Cache-Control: \`${CACHE_CONTROL[e.cache]}\`.`,
      headers: dep.deprecated ? { ...commonHeaders, ...DEPRECATION_HEADERS } : commonHeaders,
      content,
    },
    304: { description: 'Not modified (If-None-Match matched the ETag).' },
    405: errorResponse('Method not allowed; the Allow header lists the allowed methods.'),
  };
  if (e.id.startsWith('reports.') && pp.length) {
    responses[308] = { description: 'An upper-case `{state}`: redirected to the lower-case path.' };
    responses[400] = errorResponse(
      '`invalid_year` (not four digits), `invalid_fips` (`{county}` not 5 digits), or `invalid_parameter` for an unknown `table` or `format` (the body lists the allowed values).',
    );
    responses[404] = errorResponse(
      '`unknown_year` (outside the published range), `unknown_state` (not a state code) or `unknown_county` (not a county of `{state}`).',
    );
  } else if (e.tables) {
    responses[400] = errorResponse(
      'Unknown `table` or `format` (`invalid_parameter` / `invalid_format`; the body lists the allowed values).',
    );
  } else if (e.key === 'fips') {
    const dates = e.functionParams?.some((p) => p.schema.format === 'date-time') ? ` ${DATES_400}` : '';
    responses[400] = errorResponse(
      `\`fips\` is not 5 digits, or \`format\` is not one this endpoint offers (the body lists them).${dates}`,
    );
    responses[404] = errorResponse('Well-formed FIPS code of no county.');
  } else if (pp.includes('{date}')) {
    responses[400] = errorResponse(
      `\`{date}\` is not a calendar date \`YYYY-MM-DD\` from ${FIRST_YEAR} to the current year + ${YEARS_AHEAD} (\`invalid_parameter\`, param \`date\`), or \`format\` is not one this endpoint offers.`,
    );
    responses[404] = errorResponse('A well-formed day that is not archived (not finished, or not reached).');
  } else if (e.id === 'archive.map') {
    responses[400] = errorResponse(`\`at\` is missing or invalid. ${DATES_400}`);
  } else if (e.formats.length > 1 || e.functionParams?.length) {
    responses[400] = errorResponse(
      'A query parameter is invalid (the body names it and the allowed values): unknown `kind`, non-numeric `min_customers`, `limit` over the maximum, malformed `since`, unknown `utility`, or a cursor this API did not issue (`invalid_cursor`).',
    );
  }
  if (checksQuery(e)) responses[400] = withUnknownParameter(responses[400]);
  if (e.functionParams?.some((p) => p.name === 'after'))
    responses[410] = errorResponse(
      'The cursor points before the oldest retained event (`cursor_expired`); restart from first_cursor or use `since`.',
    );
  const cls = limitClass(e.id);
  if (cls)
    responses[429] = rateLimitResponse(
      cls,
      ' Only query-filtered requests count; the prebuilt unfiltered files are not limited.',
    );
  if (e.servedBy === 'function' || e.functionParams?.length) responses[503] = busyResponse();
  return {
    operationId: e.id.replace(/\./g, '_'),
    summary: e.summary,
    description: e.description + dep.note,
    tags: [e.path.split('/')[3] ?? 'meta'],
    ...(dep.deprecated ? { deprecated: true } : {}),
    parameters: params,
    responses,
  };
}

export function buildOpenApi(simulated: boolean): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of CATALOGUE)
    paths[e.path] = {
      get: operation(e),
      options: {
        summary: 'CORS preflight',
        operationId: `${e.id.replace(/\./g, '_')}_preflight`,
        ...(e.deprecated ? { deprecated: true } : {}),
        responses: { 204: { description: 'Allowed methods and headers.' } },
      },
    };
  for (const f of FUNCTION_ENDPOINTS) {
    const params = [
      ...[...f.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      })),
      ...(f.query ?? []).map((q) => ({
        name: q.name,
        in: 'query',
        required: false,
        description: q.description,
        schema: q.schema,
      })),
    ];
    const dep = deprecation(f.id, f.deprecated);
    const headers = dep.deprecated ? { headers: DEPRECATION_HEADERS } : {};
    const responses: Record<string, unknown> = {
      [f.status]: f.schema
        ? {
            description: f.summary,
            ...headers,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${f.schema}` } } },
          }
        : { description: f.summary, ...headers },
    };
    if (f.kind === 'ops')
      responses[503] = {
        description: 'Not ready (`status: unavailable`, the reasons in `problems`).',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${f.schema}` } } },
      };
    if (!f.kind) {
      responses[400] = withUnknownParameter(
        errorResponse(
          'Invalid input: the body names the parameter (`invalid_body`, `invalid_email`, `invalid_code`, `invalid_scope`, `unsafe_url`, `invalid_parameter`).',
        ),
      );
      if (f.auth) responses[401] = errorResponse('Missing, unknown or revoked API key (`unauthorized`).');
      if (f.path.includes('{id}'))
        responses[404] = errorResponse(
          "No such rule, key or channel in this account (`unknown_rule`, `unknown_key`, `unknown_channel`) — also for another account's.",
        );
      if (f.id === 'rules.create' || f.id === 'rules.update')
        responses[403] = errorResponse(
          `\`forbidden_scope\`: watch on a state or utility scope, or too many watched counties. \`account_limit\`: more than ${MAX_RULES_PER_ACCOUNT} rules, or more than ${MAX_TARGETS_PER_ACCOUNT} distinct channel targets (URLs and email addresses) across the account's rules.`,
        );
      if (f.id === 'rules.rotate')
        responses[403] = errorResponse(
          `\`account_limit\`: ${MAX_RETIRED_SECRETS} rotated-out secrets of the channel are still in their grace (a channel signs with at most ${MAX_RETIRED_SECRETS + 1} at once); the message says when the first ends.`,
        );
      const cls = limitClass(f.id);
      if (cls) responses[429] = rateLimitResponse(cls, ACCOUNT_429_NOTES[f.id] ?? '');
      responses[503] = errorResponse('`accounts_unavailable`: no account database on this deployment.');
    }
    paths[f.path] = {
      ...(paths[f.path] ?? {}),
      [f.method.toLowerCase()]: {
        operationId: f.id.replace(/\./g, '_'),
        summary: f.summary,
        description: f.description + dep.note,
        tags: [f.id.split('.')[0] === 'alerts' ? 'alerts' : 'accounts'],
        ...(dep.deprecated ? { deprecated: true } : {}),
        ...(f.auth ? { security: [{ apiKey: [] }] } : {}),
        parameters: params,
        ...(f.body
          ? {
              requestBody: {
                required: f.id !== 'keys.create' && f.id !== 'rules.rotate',
                content: { 'application/json': { schema: { $ref: `#/components/schemas/${f.body}` } } },
              },
            }
          : {}),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'US Power Outage Data API',
      version: '1',
      summary: 'Free, keyless JSON API for United States electric power outages.',
      description: [
        "Live county status from each utility's own outage feed, prebuilt as static files and refreshed as each source is polled.",
        '',
        `Data notice: ${dataNotice(simulated)}`,
        '',
        CITATION,
        '',
        '**Envelope.** Every JSON response is `{ "data": … }`. Errors use the same envelope: `{ "data": { "error": { "status", "code", "message", "param"?, "allowed"? } } }`.',
        '',
        '**Denominator.** County percentages use max(customers the feeds publish, modelled county customers). `pct_out` is null when that is smaller than the outage, never clamped.',
        '',
        `**Polling.** Each source polls on its own interval_min; it is hardened (a third of the interval, at least 2 minutes) while its utility has ≥ ${HARDEN_AT_PCT} % out. A source is stale when its last successful fetch is older than max(20, 2 × interval_min + 5) minutes. A utility at or above ${MAJOR_EVENT_PCT} % out is on the major-event line.`,
        '',
        '**Versioning.** v1 is additive-only; breaking changes are announced at least 90 days ahead and ship under a new version. Every v1 response carries X-Request-Id, X-API-Version: 1 and X-Data-Notice.',
        '',
        `**Deprecation.** An operation due to go is marked \`deprecated: true\` here at least ${DEPRECATION_NOTICE_DAYS} days before its sunset, and every response of it carries \`Deprecation\` (RFC 9745, \`@<unix seconds>\`), \`Sunset\` (RFC 8594, an HTTP-date) and \`Link: <…>; rel="deprecation"\` naming the replacement. It keeps answering until the sunset.`,
        '',
        `**Rate limits.** The function layer (query-filtered requests; the account endpoints) allows each client, by default, ${LIMIT_DEFAULTS.query.perMinute} filtered queries a minute in bursts of ${LIMIT_DEFAULTS.query.burst}, and ${LIMIT_DEFAULTS.account.perMinute} account requests a minute in bursts of ${LIMIT_DEFAULTS.account.burst} (a deployment may configure others); past that it answers 429 \`rate_limited\` with \`Retry-After\`. Prebuilt files (every request without a filter) are not limited.`,
        '',
        `**Query parameters.** Each operation lists the query parameters it takes. On an operation the function layer answers (those with query parameters of their own, and the account endpoints) any other name is a 400 \`unknown_parameter\` whose \`allowed\` lists the names it takes, so a mistyped filter is never silently ignored; ${IGNORED_QUERY_NAMES.map((n) => `\`${n}\``).join(' and ')}, which clients add to bust caches, are ignored everywhere. A prebuilt-only file is served whatever its query says.`,
        '',
        `**Request limits.** Dates and times are parsed strictly: a real calendar date, every time with its zone (\`Z\` or an offset), a year from ${FIRST_YEAR} to the current year + ${YEARS_AHEAD}; anything else is a 400 \`invalid_parameter\` naming the parameter, and a path parameter that is not of its form is a 400 too. A range is checked against its documented maximum before anything is read. Function answers run under a per-request budget (by default ${Math.ceil(FUNCTION_DEFAULTS.budgetMs / 1000)} s to get one of the function layer's threads, then ${Math.ceil(FUNCTION_DEFAULTS.budgetMs / 1000)} s on it): past it, 503 \`busy\` with \`Retry-After\`. A request line and headers over 16 KB get 431 \`headers_too_large\`, a request that is not HTTP 400 \`malformed_request\`, both in the error envelope.`,
        '',
        '**CORS.** `Access-Control-Allow-Origin: *`; OPTIONS preflight answers 204.',
        '',
        '**Events.** Kinds and when each is emitted (thresholds are in customers out; hysteresis keeps a noisy feed from flooding the stream):',
        ...Object.entries(EMISSION).map(([k, v]) => `- \`${k}\`: ${v}`),
        '',
        '**Annual reports.** Built from imported history: EAGLE-I (ORNL, CC BY 4.0), DOE OE-417 and EIA-861 (public domain). In a simulated deployment (`simulated` true) the history is the built-in simulator\'s: every row says `source: "simulated"` and `source_credit` names no one. Rules:',
        ...Object.entries(REPORT_RULES).map(([k, v]) => `- \`${k}\`: ${v}`),
        '',
        ACCOUNTS_DESCRIPTION,
        '',
        'Outages open and close per scope (county, municipality/township, utility). An outage closes only after two consecutive successful polls below half the threshold it opened at, and never while a feed covering it is stale.',
      ].join('\n'),
      license: { name: 'Data: see X-Data-Notice; code: MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This deployment' }],
    tags: [
      { name: 'live', description: 'Live outage status' },
      { name: 'accounts', description: 'Accounts, API keys and alert rules (webhooks: see the webhooks section)' },
      { name: 'reports', description: 'Annual report tables and charts' },
      { name: 'counties', description: 'County profiles, history and charts' },
      { name: 'places', description: 'Search by county, town or ZIP code' },
      { name: 'events', description: 'The event stream' },
      { name: 'feeds', description: 'Syndication feeds' },
      { name: 'alerts', description: 'Alerts' },
      { name: 'meta', description: 'About the API' },
    ],
    paths,
    webhooks: webhooksSection(),
    components: {
      schemas: { ...SCHEMAS, ...ACCOUNT_SCHEMAS, Text: { type: 'string' } },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An account API key (`odk_…`), from POST /api/v1/accounts/verify or POST /api/v1/keys. Only the account endpoints need it.',
        },
      },
    },
  };
}
