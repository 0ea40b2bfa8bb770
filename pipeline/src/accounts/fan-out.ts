// Events → deliveries: one per matching event × channel, with two limits (issue 24: 500 rules × 10 webhooks turned
// two events into 10,036 deliveries). An event that several rules of one account match reaches each target once
// (coalesced: the delivery belongs to the first matching rule by id), and a `pending` email channel (its address has
// not confirmed) gets nothing. A disabled channel's deliveries are made `held`, as before. Incident events (issue 41
// part 2: a storm lists thousands of incidents) reach one account at most INCIDENT_DELIVERIES_PER_CYCLE times an
// ingest, whatever its rules and targets; the rest are counted (`capped`), never queued, and the account told.
import type { PublicEvent } from '../contract/events.ts';
import { messageBody, webhookBody } from './channels.ts';
import { matches, releaseAt, type Rule } from './rules.ts';
import { newId } from './secrets.ts';
import type { ChannelRow } from './account-types.ts';
import { INCIDENT_DELIVERIES_PER_CYCLE } from './delivery-policy.ts';

export interface FanOut {
  /** the rows `DeliveryEngine.insertDeliveries` takes */
  rows: unknown[][];
  /** per account: incident deliveries past the cap, not queued */
  capped: Map<string, number>;
}

/** The deliveries of `events` (oldest first) against `rules` (sorted by id). */
export function eventDeliveries(
  events: PublicEvent[],
  rules: Array<{ rule: Rule; channels: ChannelRow[] }>,
  now: Date,
  baseUrl: string,
): FanOut {
  const rows: unknown[][] = [];
  const incidentRows = new Map<string, number>();
  const capped = new Map<string, number>();
  for (const e of events) {
    const reached = new Set<string>();
    for (const { rule, channels } of rules) {
      if (!matches(rule, e)) continue;
      const release = releaseAt(rule, new Date(Math.max(now.getTime(), Date.parse(e.at))));
      for (const c of channels) {
        const once = `${rule.account_id}|${c.kind}|${c.target_key}`;
        if (c.status === 'pending' || reached.has(once)) continue;
        reached.add(once);
        if (e.scope === 'incident') {
          const n = incidentRows.get(rule.account_id) ?? 0;
          if (n >= INCIDENT_DELIVERIES_PER_CYCLE) {
            capped.set(rule.account_id, (capped.get(rule.account_id) ?? 0) + 1);
            continue;
          }
          incidentRows.set(rule.account_id, n + 1);
        }
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
  return { rows, capped };
}
