// Alert rules of an account: created, read, listed, updated and deleted (spec: Events — alert rules). A rule is
// checked (rule-checks.ts) and saved with its channels under the account's caps (rule-channels.ts) in one
// transaction; email channels to other addresses are asked to confirm after it (email-confirm.ts), and the create and
// update answers say which were asked (`confirmations`).
import { err, parse } from './account-errors.ts';
import type { Account, AccountServiceOptions, ChannelRow, RuleRow } from './account-types.ts';
import { requestConfirmations } from './email-confirm.ts';
import { checkAccountLimits, replaceChannels } from './rule-channels.ts';
import { checkChannels, checkIncidentWatch, checkScope, watchedFor } from './rule-checks.ts';
import { ruleDoc } from './rule-doc.ts';
import { ruleInput, rulePatch, scopeColumns, type RuleInput } from './rules.ts';
import { newId } from './secrets.ts';

/** The columns $3–$14 of a rule's INSERT and UPDATE, in their order. */
function ruleColumns(input: RuleInput, watched: string[]): unknown[] {
  const s = scopeColumns(input.scope);
  return [
    input.name,
    s.scope_kind,
    s.scope_value,
    s.scope_state,
    input.kinds,
    input.min_customers,
    input.min_pct,
    input.quiet_hours?.start ?? null,
    input.quiet_hours?.end ?? null,
    input.quiet_hours?.timezone ?? null,
    watched,
    input.sync_interval_min,
  ];
}

export async function createRule(o: AccountServiceOptions, a: Account, body: unknown) {
  const input = parse(ruleInput, body);
  checkScope(input.scope);
  checkIncidentWatch(input);
  checkChannels(input.channels, o.safety);
  const now = o.clock();
  const id = newId('rule');
  const pending = await o.sql.transaction(async (tx) => {
    await checkAccountLimits(tx, a.id, input.channels, null);
    const watched = await watchedFor(tx, a, input);
    await tx.query(
      `INSERT INTO rules (id, account_id, name, scope_kind, scope_value, scope_state, kinds, min_customers, min_pct, quiet_start, quiet_end, quiet_tz, watched, sync_interval_min, next_sync_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
      [id, a.id, ...ruleColumns(input, watched), input.sync_interval_min ? now : null, now],
    );
    return replaceChannels(tx, a, id, input.channels);
  });
  const confirmations = await requestConfirmations(o, a.id, pending);
  return { ...(await getRule(o, a, id, true)), confirmations };
}

/** A rule of the account (404 for another account's rule too: ids do not leak). `secrets`: include webhook secrets. */
export async function getRule(o: AccountServiceOptions, a: Account, id: string, secrets = false) {
  const [r] = await o.sql.query<RuleRow>('SELECT * FROM rules WHERE id = $1 AND account_id = $2', [id, a.id]);
  if (!r) throw err.rule(id);
  return ruleDoc(r, await channelsWhere(o, 'c.rule_id = $2', id), secrets);
}

export async function listRules(o: AccountServiceOptions, a: Account) {
  const rules = await o.sql.query<RuleRow>('SELECT * FROM rules WHERE account_id = $1 ORDER BY created_at, id', [a.id]);
  const channels = await channelsWhere(o, 'r.account_id = $2', a.id);
  return rules.map((r) =>
    ruleDoc(
      r,
      channels.filter((c) => c.rule_id === r.id),
      false,
    ),
  );
}

/** Channels, each with its target's pause while it lasts (delivery-breaker.ts). `where` is fixed text, `$2` its value. */
function channelsWhere(o: AccountServiceOptions, where: 'c.rule_id = $2' | 'r.account_id = $2', value: string) {
  return o.sql.query<ChannelRow>(
    `SELECT c.*, b.paused_until, b.paused_reason FROM channels c JOIN rules r ON r.id = c.rule_id
      LEFT JOIN target_breakers b ON b.target = c.target_key AND b.paused_until > $1 WHERE ${where} ORDER BY c.id`,
    [o.clock(), value],
  );
}

export async function updateRule(o: AccountServiceOptions, a: Account, id: string, body: unknown) {
  const patch = parse(rulePatch, body);
  const current = await getRule(o, a, id);
  const merged = parse(ruleInput, { ...current.definition, ...patch });
  checkScope(merged.scope);
  checkIncidentWatch(merged);
  checkChannels(merged.channels, o.safety);
  const now = o.clock();
  const pending = await o.sql.transaction(async (tx) => {
    if (patch.channels) await checkAccountLimits(tx, a.id, merged.channels, id);
    const watched = await watchedFor(tx, a, merged, id);
    await tx.query(
      `UPDATE rules SET name = $3, scope_kind = $4, scope_value = $5, scope_state = $6, kinds = $7, min_customers = $8, min_pct = $9, quiet_start = $10, quiet_end = $11,
        quiet_tz = $12, watched = $13, sync_interval_min = $14, next_sync_at = CASE WHEN $14::INTEGER IS NULL THEN NULL ELSE coalesce(next_sync_at, $15) END, updated_at = $15 WHERE id = $1 AND account_id = $2`,
      [id, a.id, ...ruleColumns(merged, watched), now],
    );
    return patch.channels ? replaceChannels(tx, a, id, merged.channels) : [];
  });
  const confirmations = await requestConfirmations(o, a.id, pending);
  return { ...(await getRule(o, a, id, Boolean(patch.channels))), confirmations };
}

export async function deleteRule(o: AccountServiceOptions, a: Account, id: string): Promise<void> {
  const rows = await o.sql.query('DELETE FROM rules WHERE id = $1 AND account_id = $2 RETURNING id', [id, a.id]);
  if (rows.length === 0) throw err.rule(id);
}

/** Counties watched by any rule: their sources are polled hardened (the live core's hook). */
export async function watchedCounties(o: AccountServiceOptions): Promise<Set<string>> {
  const rows = await o.sql.query<{ w: string }>('SELECT DISTINCT unnest(watched) AS w FROM rules');
  return new Set(rows.map((r) => r.w));
}
