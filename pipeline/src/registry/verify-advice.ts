// Why a verified row failed, in the operator's terms, and what to do about it: one table of advice by kind of failure.
import type { SourceError, SourceFailure } from '../errors.ts';
import type { SourceDef } from '../sources/source-def.ts';

export const FAILURE_KINDS = [
  'kubra_view_not_found',
  'not_found',
  'refused',
  'rate_limited',
  'server_error',
  'http_status',
  'captcha',
  'html_page',
  'not_json',
  'tls_certificate',
  'dns',
  'connection',
  'timeout',
  'deadline',
  'schema_changed',
  'too_large',
  'implausible_value',
  'config',
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** What to do, by kind. `{name}` is filled from the failure (fill below); the message says what happened. */
export const ADVICE: Record<FailureKind, string> = {
  kubra_view_not_found:
    "the Kubra view id may have changed (a utility that republishes its storm center gets a new view, and the old one answers 404): open {map} with the browser's network tab filtered on `kubra.io`, find the `currentState` request and copy its `stormcenters/{instance}/views/{view}` ids into the row's url; `outage sources probe {id}` confirms",
  not_found:
    "the feed is not at the row's url any more: open {map} with the browser's network tab and compare its data request with the row's url",
  refused:
    'the host refused us (HTTP {status}): many want the map page as Referer (options.referer); never add credentials; if it keeps refusing, disable the row with the reason',
  rate_limited:
    "the host asks us to slow down (HTTP 429{retry}): do not verify it again before then; if polling meets it too, raise the row's interval_min",
  server_error:
    'the host failed (HTTP {status}): usually passing; verify again later, and look at the map page if it stays',
  http_status: "the host answered HTTP {status}: compare the row's url with the request {map} makes",
  captcha:
    'the host answered a bot challenge (captcha) instead of data: we do not solve challenges; ask the utility to allow the `outage-data` User-Agent, or disable the row with the reason',
  html_page:
    "the host answered an HTML page with status {status} instead of data: the url may be the map page rather than its data feed, or the feed moved and the host serves an error page; compare the row's url with the data request {map} makes",
  not_json:
    'the answer is not JSON: save it (--save) and look at what the host sends; the url may name the wrong resource',
  tls_certificate:
    "the host's TLS certificate was not accepted: check it with `openssl s_client -connect {host}:443 -servername {host}`; an expired or mismatched certificate is the utility's to fix (never turn verification off), so disable the row with the reason until it is",
  dns: "the host name {host} does not resolve: the utility may have moved its map to another host (open {map} and find the data request's host) or the url is mistyped; a host gone for good means the row needs a new url or disabling",
  connection:
    'no connection to {host}: the host is down or blocks us; verify again later, and from another network if it persists',
  timeout:
    'no complete answer within the deadlines: verify again later, or with --timeout more seconds; a host that is always slow needs a longer interval_min',
  deadline:
    "the verification's total deadline passed before this row finished: give --deadline more seconds, or verify the rest with --only",
  schema_changed:
    "the feed's shape changed at `{field}`: save the answer (--save DIR), compare it with the {connector} connector's schema.ts, and update the connector with the new answer as a fixture",
  too_large: 'the answer is over the size cap: the url may name a whole data set rather than the outage feed',
  implausible_value:
    'the feed sent a count no utility could have (a sentinel, negative or fractional): the snapshot is refused as polling would; look at the saved answer (--save)',
  config: 'the row cannot be fetched as written: fix its url or options (`outage sources check` names the problem)',
};

export interface Failure {
  kind: FailureKind;
  /** the poll failure reason (as `/live/sources` records it), or `deadline` for the verification's own deadline */
  reason: SourceFailure | 'deadline';
  message: string;
  advice: string;
}

/** The request that decided a failure: its URL, status, content type and the start of its body. */
export interface Decisive {
  url: string | null;
  status: number | null;
  contentType?: string;
  body?: string;
}

const KUBRA_VIEW = /\/stormcenters\/[^/]+\/views\/[^/]+\/(currentState|configuration)\b/;
const CHALLENGE =
  /captcha|cf-chl|challenge-platform|just a moment\.\.\.|attention required|incapsula|distil_r|are you a (human|robot)|bot protection/i;
const DNS = /ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo/;
const TLS = /CERT_|ERR_TLS|certificate|self[- ]signed|SSL routines|unable to verify/i;

function httpKind(status: number | undefined, url: string | null): FailureKind {
  if (status === 404) return url && KUBRA_VIEW.test(url) ? 'kubra_view_not_found' : 'not_found';
  if (status === 401 || status === 403) return 'refused';
  if (status === 429) return 'rate_limited';
  if (status !== undefined && status >= 500) return 'server_error';
  return 'http_status';
}

function bodyKind(d: Decisive): FailureKind {
  const head = (d.body ?? '').slice(0, 8192);
  if (CHALLENGE.test(head)) return 'captcha';
  const html = /html/i.test(d.contentType ?? '') || /^\s*</.test(head);
  return html ? 'html_page' : 'not_json';
}

export function failureKind(reason: SourceFailure, e: Pick<SourceError, 'message' | 'status'>, d: Decisive) {
  switch (reason) {
    case 'http_status':
      return httpKind(e.status, d.url);
    case 'bad_body':
      return bodyKind(d);
    case 'network':
      return DNS.test(e.message) ? 'dns' : TLS.test(e.message) ? 'tls_certificate' : 'connection';
    case 'schema':
      return 'schema_changed';
    default:
      return reason;
  }
}

/** The field a schema failure names (`… has an unexpected shape: events.0.Slices: …`), else the whole message. */
const schemaField = (message: string): string => /unexpected shape: ([^:]+):/.exec(message)?.[1]?.trim() ?? '(root)';

const hostOf = (url: string | null): string => {
  try {
    return url ? new URL(url).hostname : 'the host';
  } catch {
    return 'the host';
  }
};

/** Fills ADVICE[kind] for this row and failure. */
export function adviceFor(kind: FailureKind, source: SourceDef, e: Partial<SourceError>, d: Decisive): string {
  const referer = typeof source.options.referer === 'string' ? source.options.referer : null;
  const values: Record<string, string> = {
    id: source.id,
    connector: source.connector,
    map: referer ? `the utility's outage map (${referer})` : "the utility's outage map",
    host: hostOf(d.url ?? source.url),
    status: String(d.status ?? e.status ?? ''),
    retry: e.retryAfter != null ? `, Retry-After ${e.retryAfter} s` : '',
    field: schemaField(e.message ?? ''),
  };
  // Only the known names are filled: `{instance}` and `{view}` in the Kubra advice are literal.
  return ADVICE[kind].replace(/\{(id|connector|map|host|status|retry|field)\}/g, (_, k: string) => values[k]);
}

/** The failure of one row, classified and explained. */
export function explainFailure(source: SourceDef, e: SourceError, d: Decisive, deadline = false): Failure {
  const kind: FailureKind = deadline ? 'deadline' : failureKind(e.reason, e, d);
  return {
    kind,
    reason: deadline ? 'deadline' : e.reason,
    message: e.message,
    advice: adviceFor(kind, source, e, d),
  };
}
