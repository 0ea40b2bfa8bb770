// A rule as the account endpoints answer it: its definition (what was saved, as it can be sent back), the counties
// it watches, and each channel's state — disabled, or its target paused by the circuit breaker — (webhook signing
// secrets only when asked: after a save that made them).
import { iso, type ChannelRow, type RuleRow } from './account-types.ts';
import { scopeOf, type RuleInput } from './rules.ts';

export function ruleDoc(r: RuleRow, channels: ChannelRow[], secrets: boolean) {
  const definition: RuleInput = {
    name: r.name,
    scope: scopeOf(r),
    kinds: r.kinds,
    min_customers: r.min_customers,
    min_pct: r.min_pct,
    quiet_hours: r.quiet_start ? { start: r.quiet_start, end: r.quiet_end!, timezone: r.quiet_tz! } : null,
    watch: r.watched.length > 0,
    sync_interval_min: r.sync_interval_min,
    channels: channels.map((c) =>
      c.kind === 'email' ? { type: 'email', to: c.target } : { type: c.kind as 'webhook', url: c.target },
    ),
  };
  return {
    id: r.id,
    ...definition,
    definition,
    watched_counties: r.watched,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    next_sync_at: iso(r.next_sync_at),
    channel_status: channels.map((c) => ({
      id: c.id,
      type: c.kind,
      target: c.target,
      status: c.status,
      consecutive_failures: c.consecutive_failures,
      disabled_at: iso(c.disabled_at),
      disabled_reason: c.disabled_reason,
      paused_until: iso(c.paused_until),
      paused_reason: c.paused_reason ?? null,
      ...(secrets && c.secret ? { signing_secret: c.secret } : {}),
    })),
  };
}
