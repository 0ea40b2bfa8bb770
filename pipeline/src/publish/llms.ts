// /llms.txt: a plain-text overview for language models, generated from the catalogue.
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../contract/catalogue.ts';
import { CITATION, dataNotice } from '../contract/notice.ts';
import { EVENT_KINDS } from '../state/lifecycle.ts';

export function buildLlmsTxt(simulated: boolean): string {
  const lines = [
    '# US Power Outage Data API',
    '',
    "> Free, keyless JSON API for United States electric power outages: live county status from each utility's own feed, prebuilt as static files.",
    '',
    dataNotice(simulated),
    '',
    '## Conventions',
    '- Every JSON response is {"data": …}; errors are {"data": {"error": {"status", "code", "message"}}}.',
    '- Counties are 5-digit FIPS codes; states in the live map are USPS codes.',
    '- Live map entries are [customers_out, pct_out, level, band, magnitude]; band 0–5 at 1/3/10/25/50 % out, −1 without a trusted denominator.',
    '- OpenAPI 3.1: /api/v1/openapi.json',
    '',
    '## Endpoints',
    ...CATALOGUE.map(
      (e) => `- GET ${e.path}${e.formats.length > 1 ? ` (format=${e.formats.join('|')})` : ''}: ${e.summary}`,
    ),
    ...FUNCTION_ENDPOINTS.map((f) => `- ${f.method} ${f.path}: ${f.summary}`),
    '',
    '## Event stream',
    '- GET /api/v1/events pages the outage event stream by opaque cursor, newest first: pass next_cursor as `after` for older events; first_cursor (the oldest retained event) and latest_cursor (events published since) read oldest first. Filters: fips, state, utility, kind, min_customers, since, limit.',
    `- Kinds: ${EVENT_KINDS.join(', ')}. They concern counties, municipalities/townships and utilities; single incidents when asked for with scope=incident.`,
    '- Feeds with the same filters: /feeds/events.rss (RSS 2.0), /feeds/events.atom (Atom 1.0), /feeds/events.json (JSON Feed 1.1); also under /api/v1/feeds/.',
    '',
    '## Alert rules (accounts)',
    '- Read endpoints need no key. Alert rules belong to an account: POST /api/v1/accounts {"email"} sends a code; POST /api/v1/accounts/verify {"email","code"} returns an API key (shown once); send it as `Authorization: Bearer <key>`.',
    '- POST /api/v1/rules creates a rule: scope (county FIPS, state, utility or municipality), event kinds, min_customers, min_pct, quiet hours, watch (hardened polling), sync_interval_min (scheduled data pushes) and channels: webhook (signed), slack, discord, teams, email.',
    '- Webhooks carry `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`; deduplicate on Service-Event-Id; delivery is at least once with retries. Payloads: the `webhooks` section of /api/v1/openapi.json.',
    '- POST /api/v1/alerts/subscribe answers 410 Gone: email subscriptions became alert rules.',
    '',
    '## Citation',
    CITATION,
    '',
  ];
  return lines.join('\n');
}
