// What the account operations share: their options, the account database's rows as they read them, and timestamps
// answered as ISO text.
import type { Mailer } from './mailer.ts';
import type { Rule } from './rules.ts';
import type { SafetyOptions } from './safety.ts';
import type { Sql } from './sql.ts';

export interface AccountServiceOptions {
  sql: Sql;
  mailer: Mailer;
  baseUrl: string;
  clock: () => Date;
  safety: SafetyOptions;
}

export interface Account {
  id: string;
  email: string;
  created_at: string;
  verified_at: string | null;
}
export interface ChannelRow {
  id: string;
  rule_id: string;
  kind: string;
  target: string;
  /** its URL, or `email:` and the address without case (a generated column): what the limits and breaker count */
  target_key: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  status: string;
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  /** the target's circuit breaker (delivery-breaker.ts), while it pauses the target; read with CHANNEL_SELECT */
  paused_until?: string | null;
  paused_reason?: string | null;
}
export type RuleRow = Rule & {
  sync_interval_min: number | null;
  next_sync_at: string | null;
  created_at: string;
  updated_at: string;
};

export const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
