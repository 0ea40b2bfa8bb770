// Saving a rule's channels under the account's caps (issue 24: one account made 500 rules × 10 webhooks): at most
// MAX_RULES_PER_ACCOUNT rules and MAX_TARGETS_PER_ACCOUNT distinct targets (webhook and chat URLs, email addresses)
// across them, so many rules may share one Slack channel but no account fans out to hundreds of receivers. An email
// channel to any address but the account's own is `pending` until that address confirms (email-confirm.ts).
import { ApiError } from '../contract/errors.ts';
import type { Sql } from './sql.ts';
import type { ChannelInput } from './rules.ts';
import { newId, newSigningSecret } from './secrets.ts';

export const MAX_RULES_PER_ACCOUNT = 100;
export const MAX_TARGETS_PER_ACCOUNT = 20;

export const limitError = (param: string, message: string): ApiError =>
  new ApiError({ status: 403, code: 'account_limit', param, message });

/** What a channel is sent to: its URL, or its address (compared without case). */
export const targetOf = (c: ChannelInput): string => (c.type === 'email' ? c.to.toLowerCase() : c.url);

/**
 * Refuses a rule that would take the account past its caps. Locks the account row first, so two concurrent saves
 * cannot both pass. `ruleId`: the rule being replaced (its own rules and targets do not count twice).
 */
export async function checkAccountLimits(
  tx: Sql,
  accountId: string,
  channels: ChannelInput[],
  ruleId: string | null,
): Promise<void> {
  await tx.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  const [{ n }] = await tx.query<{ n: number }>(
    'SELECT count(*)::INT AS n FROM rules WHERE account_id = $1 AND id <> $2',
    [accountId, ruleId ?? ''],
  );
  if (ruleId === null && n + 1 > MAX_RULES_PER_ACCOUNT)
    throw limitError('body', `An account can have at most ${MAX_RULES_PER_ACCOUNT} rules; delete one first.`);
  const others = await tx.query<{ t: string }>(
    `SELECT DISTINCT CASE WHEN c.kind = 'email' THEN lower(c.target) ELSE c.target END AS t
    FROM channels c JOIN rules r ON r.id = c.rule_id WHERE r.account_id = $1 AND r.id <> $2`,
    [accountId, ruleId ?? ''],
  );
  const targets = new Set([...others.map((o) => o.t), ...channels.map(targetOf)]);
  if (targets.size > MAX_TARGETS_PER_ACCOUNT)
    throw limitError(
      'channels',
      `An account can send to at most ${MAX_TARGETS_PER_ACCOUNT} distinct webhook/chat URLs and email addresses across its rules (this would make ${targets.size}); reuse a channel or remove one.`,
    );
}

/**
 * Replaces a rule's channels; a channel kept (same type and target) keeps its id, secret and state. Returns the email
 * addresses now pending confirmation, for the caller to ask (after the transaction).
 */
export async function replaceChannels(
  tx: Sql,
  account: { id: string; email: string },
  ruleId: string,
  channels: ChannelInput[],
): Promise<string[]> {
  const old = await tx.query<{ id: string; kind: string; target: string; status: string }>(
    'SELECT id, kind, target, status FROM channels WHERE rule_id = $1',
    [ruleId],
  );
  const keep = new Set<string>();
  const pending = new Set<string>();
  for (const c of channels) {
    const target = c.type === 'email' ? c.to : c.url;
    const existing = old.find((o) => o.kind === c.type && o.target === target && !keep.has(o.id));
    if (existing) keep.add(existing.id);
    const status = existing?.status ?? (c.type === 'email' ? await emailStatus(tx, account, target) : 'active');
    if (status === 'pending') pending.add(target.toLowerCase());
    if (existing) continue;
    await tx.query('INSERT INTO channels (id, rule_id, kind, target, secret, status) VALUES ($1, $2, $3, $4, $5, $6)', [
      newId('ch'),
      ruleId,
      c.type,
      target,
      c.type === 'webhook' ? newSigningSecret() : null,
      status,
    ]);
  }
  for (const o of old) if (!keep.has(o.id)) await tx.query('DELETE FROM channels WHERE id = $1', [o.id]);
  return [...pending];
}

/** `active` for the account's own address or one that has confirmed; `pending` for any other. */
async function emailStatus(tx: Sql, account: { id: string; email: string }, to: string): Promise<string> {
  if (to.toLowerCase() === account.email.toLowerCase()) return 'active';
  const [row] = await tx.query(
    'SELECT 1 FROM email_confirmations WHERE account_id = $1 AND address = $2 AND confirmed_at IS NOT NULL',
    [account.id, to.toLowerCase()],
  );
  return row ? 'active' : 'pending';
}
