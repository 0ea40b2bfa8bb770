// The one error body. Errors use the same `data` envelope as every JSON response (spec: What the service does):
//   { "data": { "error": { "status": 400, "code": "invalid_fips", "message": "...", "param": "fips", "allowed": [...] } } }
export const ERROR_CODES = [
  'invalid_fips',
  'unknown_county',
  'invalid_format',
  'invalid_parameter',
  'unknown_parameter',
  'not_found',
  'method_not_allowed',
  'gone',
  'internal',
  'invalid_cursor',
  'cursor_expired',
  'invalid_year',
  'unknown_year',
  'unknown_state',
  // accounts and alert rules
  'unauthorized',
  'invalid_body',
  'invalid_email',
  'invalid_code',
  'unknown_rule',
  'unknown_key',
  'unknown_channel',
  'invalid_scope',
  'forbidden_scope',
  'account_limit',
  'unsafe_url',
  'rate_limited',
  'accounts_unavailable',
  // the function layer's own limits (issue 37)
  'busy',
  'headers_too_large',
  'malformed_request',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  param?: string;
  allowed?: string[];
  see?: string;
}

export class ApiError extends Error {
  constructor(
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = 'ApiError';
  }
}

export function errorEnvelope(body: ErrorBody): { data: { error: ErrorBody } } {
  return { data: { error: body } };
}

export const badFips = (value: string): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_fips',
    param: 'fips',
    message: `Expected \`fips\` to be a 5-digit county FIPS code, got \`${value}\`.`,
  });

export const unknownCounty = (fips: string): ApiError =>
  new ApiError({ status: 404, code: 'unknown_county', param: 'fips', message: `No county has FIPS code \`${fips}\`.` });

export const badFormat = (value: string, allowed: string[]): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_format',
    param: 'format',
    allowed,
    message: `Unknown \`format\` \`${value}\`; this endpoint offers ${allowed.join(', ')}.`,
  });

export const notFound = (path: string): ApiError =>
  new ApiError({
    status: 404,
    code: 'not_found',
    message: `No endpoint at \`${path}\`. The endpoints are listed in /api/v1/openapi.json.`,
    see: '/api/v1/openapi.json',
  });

export const methodNotAllowed = (method: string, allow: string[]): ApiError =>
  new ApiError(
    {
      status: 405,
      code: 'method_not_allowed',
      allowed: allow,
      message: `\`${method}\` is not allowed here; use ${allow.join(' or ')}.`,
    },
    { Allow: allow.join(', ') },
  );

export const badParam = (param: string, message: string): ApiError =>
  new ApiError({ status: 400, code: 'invalid_parameter', param, message });

/**
 * 400 `unknown_parameter` (issue 38 part 5): query names the endpoint does not take. `param` is the first, `allowed`
 * every name it takes; the message names them all, and the ignored cache-busting names.
 */
export const unknownParameter = (
  path: string,
  unknown: readonly string[],
  takes: readonly string[],
  ignored: readonly string[],
): ApiError => {
  const more = unknown.length > 10 ? ` and ${unknown.length - 10} more` : '';
  const names = `${unknown
    .slice(0, 10)
    .map((n) => `\`${n.slice(0, 60)}\``)
    .join(', ')}${more}`;
  const listed = takes.length ? `takes ${takes.map((n) => `\`${n}\``).join(', ')}` : 'takes no query parameters';
  return new ApiError({
    status: 400,
    code: 'unknown_parameter',
    param: unknown[0].slice(0, 60),
    allowed: [...takes],
    message: `Unknown query parameter${unknown.length > 1 ? 's' : ''} ${names}: \`${path}\` ${listed} (${ignored.map((n) => `\`${n}\``).join(' and ')} are ignored).`,
  });
};

export const badYear = (value: string): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_year',
    param: 'year',
    message: `Expected \`year\` to be a four-digit year, got \`${value}\`.`,
  });

export const unknownYear = (year: string, first: number, last: number): ApiError =>
  new ApiError({
    status: 404,
    code: 'unknown_year',
    param: 'year',
    message: `No report for ${year}: reports cover ${first} to ${last} (years not loaded yet answer with \`loaded: false\`).`,
  });

export const unknownState = (value: string): ApiError =>
  new ApiError({
    status: 404,
    code: 'unknown_state',
    param: 'state',
    message: `\`${value}\` is not a state: use the lower-case USPS code, e.g. \`fl\`.`,
  });

export const countyNotInState = (fips: string, state: string): ApiError =>
  new ApiError({
    status: 404,
    code: 'unknown_county',
    param: 'county',
    message: `\`${fips}\` is not a county FIPS code of ${state.toUpperCase()}.`,
  });

export const badTable = (value: string, allowed: readonly string[]): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_parameter',
    param: 'table',
    allowed: [...allowed],
    message: `Unknown \`table\` \`${value}\`; this endpoint offers ${allowed.join(', ')}.`,
  });

/**
 * 503 `busy` with Retry-After (issue 37): the function layer would not answer within its per-request budget (every
 * thread held, or this query ran past it). `why` says which, and what to do besides waiting.
 */
export const busy = (why: string, retryAfterS: number): ApiError =>
  new ApiError(
    { status: 503, code: 'busy', message: `${why} Retry after ${retryAfterS} s.` },
    { 'Retry-After': String(retryAfterS) },
  );
