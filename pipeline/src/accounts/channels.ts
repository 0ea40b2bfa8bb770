// What each channel receives. Webhooks get the documented JSON envelope (signed); Slack, Discord and Microsoft
// Teams get their incoming-webhook formats; email gets a plain-text message. Bodies are built once, stored with the
// delivery, and sent byte-for-byte on every attempt (only the signature's timestamp changes). Upstream and rule text
// is escaped for each chat service (chat-escape.ts).
import type { PublicEvent } from '../contract/events.ts';
import { discordText, slackText, slackUrl, teamsText } from './chat-escape.ts';
import type { ChannelKind } from './rules.ts';

/** The largest body a delivery may carry (a sync push of a large state is trimmed to fit: `truncated: true`). */
export const MAX_BODY_BYTES = 512 * 1024;

export interface RuleRef {
  id: string;
  name: string;
}

export interface WebhookEnvelope {
  /** the delivery id: the same on every retry of this delivery */
  id: string;
  type: string;
  created_at: string;
  rule: RuleRef;
  data: unknown;
}

export function webhookBody(deliveryId: string, type: string, createdAt: string, rule: RuleRef, data: unknown): string {
  const env: WebhookEnvelope = { id: deliveryId, type, created_at: createdAt, rule, data };
  return JSON.stringify(env);
}

const absolute = (baseUrl: string, link: string) => new URL(link, baseUrl).toString();

/** The chat or email rendering of an event. */
export function messageBody(
  kind: Exclude<ChannelKind, 'webhook'>,
  e: PublicEvent,
  rule: RuleRef,
  baseUrl: string,
  to?: string,
): string {
  const url = absolute(baseUrl, e.link);
  const line = `${e.title}`;
  const detail = [
    e.etr ? `Estimated restoration: ${e.etr}` : '',
    e.pct_out !== null ? `${e.pct_out} % of customers` : '',
    e.cause ? `Cause: ${e.cause}` : '',
    e.crew_status ? `Crew: ${e.crew_status}` : '',
    `Rule: ${rule.name}`,
  ]
    .filter(Boolean)
    .join(' · ');
  switch (kind) {
    case 'slack':
      return JSON.stringify({
        text: slackText(line),
        blocks: [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*${slackText(line)}*\n${slackText(detail)}\n<${slackUrl(url)}|Live status>`,
            },
          },
        ],
      });
    case 'discord':
      return JSON.stringify({
        content: discordText(line),
        embeds: [{ title: discordText(line), description: discordText(detail), url, timestamp: e.at }],
        allowed_mentions: { parse: [] },
      });
    case 'teams':
      return JSON.stringify({
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        summary: teamsText(line),
        themeColor: 'B91C1C',
        title: teamsText(line),
        text: teamsText(detail),
        potentialAction: [{ '@type': 'OpenUri', name: 'Live status', targets: [{ os: 'default', uri: url }] }],
      });
    case 'email':
      return JSON.stringify({
        to,
        subject: line,
        text: `${line}\n\n${detail}\n\nLive status: ${url}\n\n— US Power Outage Data. You get this because of the alert rule "${rule.name}".`,
      });
  }
}
