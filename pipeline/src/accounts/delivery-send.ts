// One delivery attempt: an email through the mailer, or a POST of the signed body to the channel's URL through the
// safe agent (safety.ts) — redirects only 307/308, each target checked again — classified as delivered, http_error,
// timeout, blocked or error, with its latency.
import { request, type Dispatcher } from 'undici';
import { MAX_BODY_BYTES } from './channels.ts';
import { MAX_REDIRECTS } from './delivery-policy.ts';
import type { Mailer } from './mailer.ts';
import { urlProblem, type SafetyOptions } from './safety.ts';
import { signatureHeader, SIGNATURE_HEADER } from './signing.ts';
import { signingSecrets, type RetiredSecret } from './signing-secrets.ts';

const USER_AGENT = 'outage-data-webhooks/1 (+https://github.com/outage-data)';

/** A leased delivery with its channel, rule and account (deliver.ts runDue). */
export interface Due {
  id: string;
  channel_id: string;
  kind: string;
  event_id: number | null;
  dedupe_key: string;
  payload: string;
  attempts: number;
  ch_kind: string;
  target: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  older_secrets: RetiredSecret[] | string | null;
  account_id: string;
  email: string;
  rule_name: string;
  /** the channel's target key (its URL, or `email:` and the address): what the limits and the breaker count */
  target_key: string;
}
export type Outcome = { ok: boolean; outcome: string; status: number | null; ms: number; error: string | null };

/** An outcome as a notice or a reason says it: `timeout: no answer within 10000 ms`, `http_error 503`. */
export const attemptText = (r: Outcome): string =>
  `${r.outcome}${r.status ? ` ${r.status}` : ''}${r.error ? `: ${r.error}` : ''}`;
type Done = (ok: boolean, outcome: string, status: number | null, error: string | null) => Outcome;

export interface SendOptions {
  mailer: Mailer;
  clock: () => Date;
  safety: SafetyOptions;
  agent: Dispatcher;
  timeoutMs: number;
}

export async function sendDelivery(d: Due, o: SendOptions): Promise<Outcome> {
  const t0 = performance.now();
  const done: Done = (ok, outcome, status, error) => ({
    ok,
    outcome,
    status,
    error,
    ms: Math.round(performance.now() - t0),
  });
  if (d.ch_kind === 'email') {
    try {
      await o.mailer.send(JSON.parse(d.payload));
      return done(true, 'delivered', null, null);
    } catch (e) {
      return done(false, 'error', null, (e as Error).message.slice(0, 300));
    }
  }
  if (Buffer.byteLength(d.payload) > MAX_BODY_BYTES)
    return done(false, 'error', null, `body larger than ${MAX_BODY_BYTES} bytes`);
  const headers = deliveryHeaders(d, o.clock());
  try {
    return await post(d, headers, o, done);
  } catch (e) {
    return failure(e, o.timeoutMs, done);
  }
}

/** The request's headers; a webhook's body is signed with its secret and each rotated-out one still in its grace. */
function deliveryHeaders(d: Due, now: Date): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'service-delivery-id': d.id,
    'service-event-id': d.event_id !== null ? `evt_${d.event_id}` : d.dedupe_key,
    'service-event-type': d.kind,
    'service-delivery-attempt': String(d.attempts + 1),
  };
  if (d.ch_kind === 'webhook' && d.secret) {
    const secrets = signingSecrets(d, now);
    headers[SIGNATURE_HEADER.toLowerCase()] = signatureHeader(secrets, Math.floor(now.getTime() / 1000), d.payload);
  }
  return headers;
}

/** POSTs the body, following at most MAX_REDIRECTS 307/308 redirects, each target checked first. */
async function post(d: Due, headers: Record<string, string>, o: SendOptions, done: Done): Promise<Outcome> {
  let url = d.target;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const why = urlProblem(url, o.safety);
    if (why) return done(false, 'blocked', null, `${url}: ${why}`);
    const res = await request(url, {
      method: 'POST',
      body: d.payload,
      headers,
      dispatcher: o.agent,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    if ((res.statusCode === 307 || res.statusCode === 308) && typeof res.headers.location === 'string') {
      url = new URL(res.headers.location, url).toString();
      continue;
    }
    if (res.statusCode >= 200 && res.statusCode < 300) return done(true, 'delivered', res.statusCode, null);
    return done(
      false,
      'http_error',
      res.statusCode,
      res.statusCode >= 300 && res.statusCode < 400 ? 'redirect not followed (only 307/308 keep the POST)' : null,
    );
  }
  return done(false, 'error', null, `more than ${MAX_REDIRECTS} redirects`);
}

/** A request that threw: blocked (an address the agent refuses), timeout, or error. */
function failure(e: unknown, timeoutMs: number, done: Done): Outcome {
  const err = e as Error & { code?: string; cause?: Error & { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'EBLOCKED' || err.cause?.name === 'BlockedAddressError')
    return done(false, 'blocked', null, (err.cause ?? err).message);
  if (
    err.name === 'TimeoutError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  )
    return done(false, 'timeout', null, `no answer within ${timeoutMs} ms`);
  return done(false, 'error', null, `${code ?? err.name}: ${err.message}`.slice(0, 300));
}
