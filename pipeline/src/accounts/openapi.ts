// The account part of the OpenAPI document: request and response schemas of the account, key and rule endpoints,
// the bearer security scheme, and the `webhooks` section describing every payload (each event kind and the sync
// push) with examples, the signature and the retry schedule.
import { z } from 'zod';
import { EVENT_KINDS } from '../state/lifecycle.ts';
import { ruleInput, rulePatch, CHANNEL_KINDS, MAX_WATCHED_PER_ACCOUNT, SYNC_MIN_INTERVAL } from './rules.ts';
import {
  RETRY_SCHEDULE_S,
  MAX_ATTEMPTS,
  DISABLE_AFTER_FAILURES,
  DISABLE_AFTER_HOURS,
  DELIVERY_TIMEOUT_MS,
  MAX_REDIRECTS,
  SENDERS,
  TARGET_IN_FLIGHT,
  ACCOUNT_IN_FLIGHT,
  BREAKER_FAILURES,
  BREAKER_PAUSE_S,
  BREAKER_MAX_PAUSE_S,
  INCIDENT_DELIVERIES_PER_CYCLE,
} from './delivery-policy.ts';
import { SIGNATURE_TOLERANCE_S } from './signing.ts';
import { MAX_BODY_BYTES } from './channels.ts';
import { ROTATION_GRACE_H } from './channel-admin.ts';
import { CODE_DIGITS } from './secrets.ts';
import {
  CODES_PER_DAY,
  FOREIGN_TRIES_PER_DAY,
  GUESSES_PER_HOUR,
  MAILS_PER_TTL,
  VERIFY_MAX_TRIES,
  VERIFY_RESEND_S,
  VERIFY_TTL_MIN,
} from './sign-in-limits.ts';
import { MAX_RULES_PER_ACCOUNT, MAX_TARGETS_PER_ACCOUNT } from './rule-channels.ts';
import { INCIDENT_EVENT_MIN } from '../state/lifecycle.ts';
import { CONFIRM_MAILS_PER_HOUR, CONFIRM_TTL_DAYS } from './email-confirm.ts';
import { TARGET_PER_MINUTE } from './target-limit.ts';

const env = (inner: Record<string, unknown>) => ({ type: 'object', required: ['data'], properties: { data: inner } });
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  required,
  properties: props,
});
const str = { type: 'string' };
const time = { type: 'string', format: 'date-time' };
const nullableTime = { type: ['string', 'null'], format: 'date-time' };
const jsonSchema = (s: z.ZodTypeAny) => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
};

const key = obj({
  id: str,
  prefix: str,
  name: { type: ['string', 'null'] },
  created_at: time,
  last_used_at: nullableTime,
  revoked_at: nullableTime,
});
const channelStatus = obj(
  {
    id: str,
    type: { enum: [...CHANNEL_KINDS] },
    target: str,
    status: {
      enum: ['active', 'disabled', 'pending'],
      description:
        "`pending`: an email channel to an address other than the account's own, waiting for that address to open its confirmation link; it delivers nothing until then.",
    },
    consecutive_failures: { type: 'integer' },
    disabled_at: nullableTime,
    disabled_reason: { type: ['string', 'null'] },
    paused_until: {
      ...nullableTime,
      description: `Set while the channel's target (its URL) is paused by its circuit breaker after ${BREAKER_FAILURES} failed attempts in a row: nothing is sent to it until then, and its deliveries wait (they are not dropped, and the wait is not an attempt). Then one is tried: a success resumes the rest; a failure pauses it again, twice as long (${BREAKER_PAUSE_S / 60} min at first, at most ${BREAKER_MAX_PAUSE_S / 60} min). The account gets a \`target_paused\` notice at the first pause since the target last answered. Null otherwise (and for email channels).`,
    },
    paused_reason: {
      type: ['string', 'null'],
      description: 'Why the target is paused (how many failures in a row, and the last), while `paused_until` is set.',
    },
    signing_secret: {
      ...str,
      description: 'Webhook channels, in the create response (and when channels change) only.',
    },
  },
  ['id', 'type', 'target', 'status', 'consecutive_failures', 'disabled_at', 'disabled_reason'],
);
const ruleDoc = {
  type: 'object',
  required: ['id', 'name', 'scope', 'kinds', 'channels', 'channel_status', 'watched_counties'],
  properties: {
    id: str,
    ...(jsonSchema(ruleInput).properties as object),
    watched_counties: { type: 'array', items: str },
    created_at: time,
    updated_at: time,
    next_sync_at: nullableTime,
    channel_status: { type: 'array', items: channelStatus },
    definition: { type: 'object' },
    confirmations: {
      ...obj({
        sent: { type: 'array', items: { type: 'string', format: 'email' } },
        not_sent: { type: 'array', items: { type: 'string', format: 'email' } },
        retry_at: nullableTime,
      }),
      description: `In the create and update answers only: the email channels' addresses (other than the account's own) sent a confirmation link by this save, and those not sent one because the account's ${CONFIRM_MAILS_PER_HOUR} confirmation emails an hour are spent — the rule is saved all the same; save it again after \`retry_at\` to ask them. An address asked within the last hour is in neither.`,
    },
  },
};

export const ACCOUNT_SCHEMAS: Record<string, unknown> = {
  AccountRequest: obj({ email: { type: 'string', format: 'email' } }),
  VerifyRequest: {
    oneOf: [
      obj({
        email: { type: 'string', format: 'email' },
        code: { type: 'string', description: `The ${CODE_DIGITS}-digit code from the email.` },
      }),
      obj({ token: str }),
    ],
  },
  VerificationSent: env(
    obj({
      account_id: str,
      expires_at: time,
      code_sent: {
        type: 'boolean',
        description: `false past the account's ${CODES_PER_DAY} codes a day: the email then carries only the link.`,
      },
    }),
  ),
  Verified: env(
    obj({
      account: obj({ id: str, email: str, created_at: time, verified_at: nullableTime }),
      api_key: obj({
        id: str,
        key: { ...str, description: 'Shown only here: `Authorization: Bearer <key>`.' },
        prefix: str,
        created_at: time,
      }),
    }),
  ),
  AccountDoc: env(
    obj({
      account: { type: 'object' },
      keys: { type: 'array', items: key },
      notices: { type: 'array', items: obj({ at: time, kind: str, message: str }) },
    }),
  ),
  EmailConfirmed: env(
    obj({
      address: { type: 'string', format: 'email' },
      confirmed_at: time,
      channels: { type: 'integer', description: 'Email channels of the account to this address now active.' },
    }),
  ),
  KeyList: env(obj({ keys: { type: 'array', items: key } })),
  KeyRequest: obj({ name: { type: 'string', maxLength: 80 } }, []),
  NewKey: env(obj({ id: str, key: str, prefix: str, created_at: time })),
  RuleInput: jsonSchema(ruleInput),
  RulePatch: jsonSchema(rulePatch),
  RuleDoc: env(ruleDoc),
  RuleList: env(obj({ rules: { type: 'array', items: ruleDoc } })),
  RotateRequest: obj({ grace_hours: { type: 'number', minimum: 0, maximum: 168, default: ROTATION_GRACE_H } }, []),
  RotatedSecret: env(obj({ channel_id: str, secret: str, previous_secret_expires_at: time })),
  DeliveryLog: env(
    obj({
      deliveries: {
        type: 'array',
        items: obj({
          id: str,
          channel_id: str,
          kind: { enum: ['event', 'sync'] },
          event_id: { type: ['integer', 'null'] },
          status: { enum: ['pending', 'delivered', 'failed', 'held'] },
          attempts: { type: 'integer' },
          created_at: time,
          next_attempt_at: time,
          delivered_at: nullableTime,
          attempt_log: {
            type: 'array',
            items: obj({
              at: str,
              outcome: { enum: ['delivered', 'http_error', 'timeout', 'blocked', 'error'] },
              status_code: { type: ['integer', 'null'] },
              latency_ms: { type: 'integer' },
              error: { type: ['string', 'null'] },
            }),
          },
        }),
      },
    }),
  ),
  WebhookEvent: {
    type: 'object',
    required: ['id', 'type', 'created_at', 'rule', 'data'],
    description:
      'The body of an event webhook. `id` is the delivery id (the same on every retry); deduplicate on the Service-Event-Id header (`evt_<event id>`), which is the same for every rule and channel the event reaches.',
    properties: {
      id: str,
      type: { enum: EVENT_KINDS.map((k) => `event.${k}`) },
      created_at: time,
      rule: obj({ id: str, name: str }),
      data: { $ref: '#/components/schemas/Event' },
    },
  },
  SyncPush: {
    type: 'object',
    required: ['id', 'type', 'created_at', 'rule', 'data'],
    description: `The body of a scheduled data sync push (type \`sync.snapshot\`), sent to a rule's webhook channels every \`sync_interval_min\` minutes (≥ ${SYNC_MIN_INTERVAL}, on multiples of the interval since 00:00 UTC). \`data\` holds, for the rule's scope, the county snapshot(s) as /api/v1/live/counties/{fips}, their areas, incidents and alert status, and the state summary. Bodies are capped at ${MAX_BODY_BYTES / 1024} KB: longer lists are cut and \`truncated\` is true.`,
    properties: {
      id: str,
      type: { const: 'sync.snapshot' },
      created_at: time,
      rule: obj({ id: str, name: str }),
      data: obj({
        scope: { type: 'object' },
        generated_at: { type: ['string', 'null'] },
        counties: { type: 'array' },
        areas: { type: 'array' },
        incidents: { type: 'array' },
        alerts: { type: 'array' },
        states: { type: 'array' },
        truncated: { type: 'boolean' },
      }),
    },
  },
};

const signatureDoc = [
  "**Signature.** Every webhook request carries `Service-Signature: t=<unix seconds>,v1=<hex>`: v1 is the lower-case hex HMAC-SHA256, keyed with the channel's signing secret (its UTF-8 bytes, `whsec_` prefix included), of the string `<t>.<raw body>` — the timestamp, a full stop, and the exact bytes of the body.",
  `During a secret rotation (default grace ${ROTATION_GRACE_H} h) the header carries one v1 per valid secret: accept the request if any matches. Reject timestamps more than ${SIGNATURE_TOLERANCE_S} seconds from your clock (replays).`,
  'Verification in Node.js: `const [t, ...v1] = header.split(",")…; const want = crypto.createHmac("sha256", secret).update(`${t}.${rawBody}`).digest("hex"); ok = v1.some(s => crypto.timingSafeEqual(Buffer.from(s, "hex"), Buffer.from(want, "hex"))) && Math.abs(Date.now()/1000 - t) <= 300` (the service ships this as `verifySignature` in `pipeline/src/accounts/signing.ts`).',
  '**Headers.** `Service-Event-Id` (`evt_<event id>`, or `sync:<rule>:<slot>` for a sync push: deduplicate on it), `Service-Delivery-Id`, `Service-Event-Type`, `Service-Delivery-Attempt`, `Content-Type: application/json`.',
  `**Delivery.** At least once. Answer 2xx within ${DELIVERY_TIMEOUT_MS / 1000} s; anything else (or no answer) is retried after ${RETRY_SCHEDULE_S.map((s) => (s < 3600 ? `${s / 60} min` : `${s / 3600} h`)).join(', ')} (± 20 % jitter) — ${MAX_ATTEMPTS} attempts in all, then the delivery is marked failed (never while its target is paused by the circuit breaker below: that backlog is kept). Redirects: only 307/308, at most ${MAX_REDIRECTS}, each target checked again. A channel failing ${DISABLE_AFTER_FAILURES} attempts in a row over at least ${DISABLE_AFTER_HOURS} h is disabled (its deliveries held, the account notified by notice and email) until re-enabled.`,
  '**Safety.** Webhook and chat URLs must be https and may not resolve (when saved, and at delivery time on the addresses DNS returned, for every redirect) to private, loopback, link-local, shared, multicast or reserved addresses, including cloud metadata services — nor to an IPv6 form carrying one (IPv4-mapped, IPv4-compatible, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`; Teredo and local-use NAT64 are refused). Host names are checked without a trailing dot.',
  "**Chat channels** (slack, discord, teams) receive their services' incoming-webhook formats (Slack `text` + `blocks`, Discord `content` + `embeds`, Teams `MessageCard`), unsigned; email channels a plain-text message. Upstream names and rule names are escaped for each: no mentions (`<!channel>`, `<!here>`, `<@…>`, `@everyone`, `@here`, Teams `<at>`), no masked links (`<url|text>`, `[text](url)`), no markup (Slack `&`, `<`, `>` escaped; Discord and Teams markdown escaped, Teams HTML escaped; Discord also `allowed_mentions: {parse: []}`). Rule matching: see RuleInput.",
  `**Slow receivers.** At most ${TARGET_IN_FLIGHT} deliveries are in flight to one target (URL or address) and ${ACCOUNT_IN_FLIGHT} to one account's targets together (of ${SENDERS} at once), accounts taking turns: a receiver that never answers holds its own deliveries for the ${DELIVERY_TIMEOUT_MS / 1000} s time-out, never another account's. A URL target that fails ${BREAKER_FAILURES} attempts in a row (no answer in time, no connection, or a non-2xx) is paused by its circuit breaker for ${BREAKER_PAUSE_S / 60} min, doubling at each pause since its last success up to ${BREAKER_MAX_PAUSE_S / 60} min; its deliveries wait in the queue, never dropped nor given up however long the pauses last (a pause is not an attempt), then one is tried first; a channel still failing after the disable rule above has its backlog held until it is re-enabled. The channel shows \`paused_until\` and \`paused_reason\`, and the account gets a \`target_paused\` notice.`,
  `**Limits.** An event that several rules of one account match reaches each target (URL or address) once (coalesced; the delivery belongs to the first matching rule by id). At most ${TARGET_PER_MINUTE} deliveries a minute go to one target; the rest are deferred to the next minute, in order, never dropped (a deferral is not a failed attempt). Email channels to an address other than the account's own are \`pending\`, delivering nothing, until that address opens the confirmation link emailed to it (valid ${CONFIRM_TTL_DAYS} days; at most ${CONFIRM_MAILS_PER_HOUR} such emails an hour per account). Incident events reach one account at most ${INCIDENT_DELIVERIES_PER_CYCLE} times from one cycle's events, across all its rules and targets; past that they are not queued and the account gets an \`incident_cap\` notice (the events stream, \`scope=incident\`, has every one).`,
  `**Incident watches.** A rule whose scope is \`county_incidents\` (\`fips\`), \`utility_incidents\` (\`source\`: a source id as in /api/v1/live/sources) or \`incident\` (\`source\` and the feed's incident \`id\`) receives the incident-scope events of its county, its source or its one incident, and no other rule receives them. The county and utility watches need \`min_customers\` ≥ ${INCIDENT_EVENT_MIN} (the incident threshold; 400 \`invalid_scope\` below it), matched as for every scope (the end of an incident reaches whoever got its start); \`min_pct\` and \`sync_interval_min\` stay null (incident events carry no \`pct_out\`). A one-incident watch ends with the incident's \`outage_restored\`: it matches again only if the feed lists the id again. \`watch\` is allowed on \`county_incidents\` (it counts the county).`,
].join('\n\n');

const exampleEvent = {
  id: 184,
  at: '2026-09-01T08:15:00.000Z',
  kind: 'outage_began',
  scope: 'county',
  fips: '12086',
  state: 'FL',
  utility: null,
  area: null,
  source_id: null,
  outage_id: 'county|12086|2026-09-01T08:15:00.000Z',
  customers_out: 48211,
  pct_out: 4.12,
  threshold: 500,
  previous_customers_out: null,
  etr: null,
  previous_etr: null,
  county_name: 'Miami-Dade',
  title: 'Outage began: Miami-Dade, FL — 48,211 customers out',
  link: '/counties/12086',
};

export function webhooksSection(): Record<string, unknown> {
  const op = (kind: string, schema: string, example: unknown) => ({
    post: {
      summary: kind === 'sync' ? 'Scheduled data sync push' : `Event ${kind}`,
      description: signatureDoc,
      parameters: [
        {
          name: 'Service-Signature',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
        },
        { name: 'Service-Event-Id', in: 'header', required: true, schema: { type: 'string' } },
        { name: 'Service-Delivery-Id', in: 'header', required: true, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` }, example } },
      },
      responses: { '2XX': { description: 'Received. Anything else is retried.' } },
    },
  });
  const out: Record<string, unknown> = {};
  for (const kind of EVENT_KINDS)
    out[`event.${kind}`] = op(kind, 'WebhookEvent', {
      id: 'dlv_Q2x8aL0pZk3v',
      type: `event.${kind}`,
      created_at: '2026-09-01T08:15:04.000Z',
      rule: { id: 'rule_7hK2xP0qLm9a', name: 'Miami-Dade outages' },
      data: { ...exampleEvent, kind },
    });
  out['sync.snapshot'] = op('sync', 'SyncPush', {
    id: 'dlv_b8Rk1mZ2xQ0p',
    type: 'sync.snapshot',
    created_at: '2026-09-01T09:00:00.000Z',
    rule: { id: 'rule_7hK2xP0qLm9a', name: 'Miami-Dade outages' },
    data: {
      scope: { kind: 'county', fips: '12086' },
      generated_at: '2026-09-01T08:59:10.000Z',
      counties: [],
      areas: [],
      incidents: [],
      alerts: [],
      states: [],
      truncated: false,
    },
  });
  return out;
}

/** What the account endpoints' 429 also means, beside the per-client request bucket (publish/openapi.ts). */
export const ACCOUNT_429_NOTES: Record<string, string> = {
  'accounts.create': ` Also when a sign-in email was sent to this address less than ${VERIFY_RESEND_S} s ago, or ${MAILS_PER_TTL} in the last ${VERIFY_TTL_MIN} minutes (the newest one's link works).`,
  'accounts.verify': ` Also past a sign-in limit: ${GUESSES_PER_HOUR} codes an hour from one network, ${VERIFY_MAX_TRIES} tries at a code from one network, or the account's ${FOREIGN_TRIES_PER_DAY} tries a day from networks other than the one that asked for the code. The emailed link is never refused for these.`,
};

export const ACCOUNTS_DESCRIPTION = [
  `**Accounts and alert rules.** Read endpoints need no key. Alert rules belong to an account: POST /api/v1/accounts with an email address, then POST /api/v1/accounts/verify with the emailed ${CODE_DIGITS}-digit code (or open the emailed link) to get an API key, shown once and stored only as a hash. Send it as \`Authorization: Bearer <key>\`.`,
  `**Signing in.** Codes and links expire after ${VERIFY_TTL_MIN} minutes; asking again never cancels one already sent. Every try is counted before it is answered. A client is its network (an IPv4 address, or an IPv6 /64). A code belongs to the network that asked for it, which gets ${VERIFY_MAX_TRIES} tries at it whatever anyone else does; a try from any other network counts against the account's ${FOREIGN_TRIES_PER_DAY} a day. A network gets at most ${VERIFY_MAX_TRIES} tries at one code and ${GUESSES_PER_HOUR} codes an hour. An address gets one sign-in email a minute and ${MAILS_PER_TTL} per ${VERIFY_TTL_MIN} minutes; past ${CODES_PER_DAY} codes a day the email carries only the link. Past a limit: 429 \`rate_limited\` with \`Retry-After\`. The link (192 random bits) is never refused for anyone's wrong codes, so a stranger cannot lock an owner out.`,
  `An account has at most ${MAX_RULES_PER_ACCOUNT} rules and ${MAX_TARGETS_PER_ACCOUNT} distinct channel targets across them (403 \`account_limit\`), and sends at most ${CONFIRM_MAILS_PER_HOUR} confirmation emails an hour to its email channels' other addresses (past that the rule is saved, and \`confirmations.not_sent\` names the addresses not asked). Keys can be listed (prefix, last use), added and revoked. Errors: 401 \`unauthorized\` (missing, unknown or revoked key), 400 \`invalid_body\`/\`invalid_email\`/\`invalid_code\`/\`invalid_scope\`/\`unsafe_url\`, 403 \`forbidden_scope\` (\`watch\` on a state, utility, utility_incidents or incident scope, or more than ${MAX_WATCHED_PER_ACCOUNT} watched counties), 404 \`unknown_rule\` (also for another account's rule), \`unknown_key\`, \`unknown_channel\`, 429 \`rate_limited\`.`,
].join('\n\n');
