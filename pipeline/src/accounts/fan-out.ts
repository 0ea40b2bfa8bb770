// Events → deliveries: one per matching event × channel, with two limits (issue 24: 500 rules × 10 webhooks turned
// two events into 10,036 deliveries). An event that several rules of one account match reaches each target once
// (coalesced: the delivery belongs to the first matching rule by id), and a `pending` email channel (its address has
// not confirmed) gets nothing. A disabled channel's deliveries are made `held`, as before.
import type { PublicEvent } from '../contract/events.ts';
import { messageBody, webhookBody } from './channels.ts';
import { matches, releaseAt, type Rule } from './rules.ts';
import { newId } from './secrets.ts';
import type { ChannelRow } from './account-types.ts';

/** The rows `DeliveryEngine.insertDeliveries` takes, for `events` against `rules` (sorted by id). */
export function eventDeliveries(
  events: PublicEvent[],
  rules: Array<{ rule: Rule; channels: ChannelRow[] }>,
  now: Date,
  baseUrl: string,
): unknown[][] {
  const rows: unknown[][] = [];
  for (const e of events) {
    const reached = new Set<string>();
    for (const { rule, channels } of rules) {
      if (!matches(rule, e)) continue;
      const release = releaseAt(rule, new Date(Math.max(now.getTime(), Date.parse(e.at))));
      for (const c of channels) {
        const once = `${rule.account_id}|${c.kind}|${c.target_key}`;
        if (c.status === 'pending' || reached.has(once)) continue;
        reached.add(once);
        const id = newId('dlv');
        const ref = { id: rule.id, name: rule.name };
        const body =
          c.kind === 'webhook'
            ? webhookBody(id, `event.${e.kind}`, now.toISOString(), ref, e)
            : messageBody(c.kind as 'slack', e, ref, baseUrl, c.target);
        const status = c.status === 'disabled' ? 'held' : 'pending';
        rows.push([id, c.id, 'event', e.id, `event:${e.id}`, body, status, now, release]);
      }
    }
  }
  return rows;
}
