// Accounts, keys and alert rules over the account database: the operations behind the account endpoints.
// spec: Authentication (read endpoints stay keyless; rules belong to an account). An account is created with an
// email address and verified by a six-digit code or a one-time link sent by email (30 minutes, 5 tries); verifying
// returns an API key, shown once. The same two steps sign an existing account in again and issue a new key.
import { z } from 'zod';
import { ApiError } from '../contract/errors.ts';
import { loadAtlas } from '../geo/counties.ts';
import { findState } from '../geo/states.ts';
import type { Sql } from './sql.ts';
import { keyPrefix, newApiKey, newId, newSigningSecret, newVerification, sameDigest, sha256 } from './secrets.ts';
import { checkAccountLimits, replaceChannels } from './rule-channels.ts';
import { confirmEmail, requestConfirmations } from './email-confirm.ts';
import { mayTry, recordFailure, UNKNOWN_REQUESTER, VERIFY_MAX_TRIES } from './sign-in-limits.ts';
import {
  MAX_WATCHED_PER_ACCOUNT,
  ruleInput,
  rulePatch,
  scopeColumns,
  scopeOf,
  type ChannelInput,
  type Rule,
  type RuleInput,
} from './rules.ts';
import { urlProblem, type SafetyOptions } from './safety.ts';
import type { Mailer } from './mailer.ts';

export const VERIFY_TTL_MIN = 30;
export { VERIFY_MAX_TRIES };
export const VERIFY_RESEND_S = 60;
/** A rotated-out signing secret stays valid this long by default (both are sent during the window). */
export const ROTATION_GRACE_H = 24;

export const err = {
  unauthorized: (why: string) =>
    new ApiError(
      {
        status: 401,
        code: 'unauthorized',
        message: `${why} Send \`Authorization: Bearer <API key>\`; create an account with POST /api/v1/accounts.`,
      },
      { 'WWW-Authenticate': 'Bearer realm="outage-data"' },
    ),
  body: (issues: z.ZodIssue[]) => {
    const i = issues[0];
    const param = i.path.join('.') || 'body';
    return new ApiError({
      status: 400,
      code: 'invalid_body',
      param,
      message: `\`${param}\`: ${i.message}${issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : ''}.`,
    });
  },
  email: (v: string) =>
    new ApiError({
      status: 400,
      code: 'invalid_email',
      param: 'email',
      message: `\`${v.slice(0, 80)}\` is not an email address.`,
    }),
  code: () =>
    new ApiError({
      status: 400,
      code: 'invalid_code',
      param: 'code',
      message: 'The code or link is wrong, used or expired. Request a new one with POST /api/v1/accounts.',
    }),
  rule: (id: string) =>
    new ApiError({
      status: 404,
      code: 'unknown_rule',
      param: 'id',
      message: `No rule \`${id.slice(0, 60)}\` in this account.`,
    }),
  key: (id: string) =>
    new ApiError({
      status: 404,
      code: 'unknown_key',
      param: 'id',
      message: `No API key \`${id.slice(0, 60)}\` in this account.`,
    }),
  channel: (id: string) =>
    new ApiError({
      status: 404,
      code: 'unknown_channel',
      param: 'channel_id',
      message: `No channel \`${id.slice(0, 60)}\` on this rule.`,
    }),
  scope: (msg: string) => new ApiError({ status: 400, code: 'invalid_scope', param: 'scope', message: msg }),
  forbidden: (msg: string) => new ApiError({ status: 403, code: 'forbidden_scope', param: 'scope', message: msg }),
  unsafe: (param: string, why: string) =>
    new ApiError({ status: 400, code: 'unsafe_url', param, message: `\`${param}\` cannot be used: ${why}.` }),
  rate: (s: number) =>
    new ApiError(
      {
        status: 429,
        code: 'rate_limited',
        message: `A code was sent less than ${s} seconds ago; wait before asking again.`,
      },
      { 'Retry-After': String(s) },
    ),
};

export function parse<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (!r.success) throw err.body(r.error.issues);
  return r.data;
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
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  status: string;
  consecutive_failures: number;
  disabled_at: string | null;
  disabled_reason: string | null;
}
type RuleRow = Rule & {
  sync_interval_min: number | null;
  next_sync_at: string | null;
  created_at: string;
  updated_at: string;
};

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const emailSchema = z.string().trim().toLowerCase().email().max(254);

export interface AccountServiceOptions {
  sql: Sql;
  mailer: Mailer;
  baseUrl: string;
  clock: () => Date;
  safety: SafetyOptions;
}

export class AccountService {
  constructor(readonly o: AccountServiceOptions) {}
  private get sql() {
    return this.o.sql;
  }

  /** Creates the account if new, and sends a verification code and link. */
  async requestVerification(body: unknown): Promise<{ account_id: string; expires_at: string }> {
    const raw = (body as { email?: unknown } | null)?.email;
    const parsed = emailSchema.safeParse(raw);
    if (!parsed.success) throw err.email(String(raw ?? ''));
    const email = parsed.data;
    const now = this.o.clock();
    const { accountId, v, expires } = await this.sql.transaction(async (tx) => {
      let [acct] = await tx.query<{ id: string }>('SELECT id FROM accounts WHERE email = $1', [email]);
      if (!acct) {
        acct = { id: newId('acct') };
        await tx.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3)', [acct.id, email, now]);
      }
      const [recent] = await tx.query<{ n: number }>(
        `SELECT count(*)::INT AS n FROM verifications WHERE account_id = $1 AND expires_at - interval '${VERIFY_TTL_MIN} minutes' > $2`,
        [acct.id, new Date(now.getTime() - VERIFY_RESEND_S * 1000)],
      );
      if (recent.n > 0) throw err.rate(VERIFY_RESEND_S);
      const v = newVerification();
      const expires = new Date(now.getTime() + VERIFY_TTL_MIN * 60_000);
      await tx.query('UPDATE verifications SET used_at = $2 WHERE account_id = $1 AND used_at IS NULL', [acct.id, now]);
      await tx.query(
        'INSERT INTO verifications (id, account_id, code_hash, token_hash, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [newId('ver'), acct.id, sha256(v.code), sha256(v.token), expires],
      );
      return { accountId: acct.id, v, expires };
    });
    const link = new URL(`/api/v1/accounts/verify?token=${v.token}`, this.o.baseUrl).toString();
    await this.o.mailer.send({
      to: email,
      subject: `Your US Power Outage Data code: ${v.code}`,
      text: `Your verification code is ${v.code}\n\nOr open this link: ${link}\n\nIt expires in ${VERIFY_TTL_MIN} minutes. If you did not ask for it, ignore this message.`,
    });
    return { account_id: accountId, expires_at: expires.toISOString() };
  }

  /**
   * Checks a code (with the email) or a link token; verifies the account and issues an API key (shown once).
   * `requester`: the client's address; wrong codes are counted per requester (sign-in-limits.ts).
   */
  async verify(
    input: {
      email?: unknown;
      code?: unknown;
      token?: unknown;
    },
    requester = UNKNOWN_REQUESTER,
  ): Promise<{ account: Account; api_key: { id: string; key: string; prefix: string; created_at: string } }> {
    const now = this.o.clock();
    return this.sql
      .transaction(async (tx) => {
        let row: { id: string; account_id: string; code_hash: string; attempts: number } | undefined;
        if (typeof input.token === 'string') {
          [row] = await tx.query(
            'SELECT id, account_id, code_hash, attempts FROM verifications WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
            [sha256(input.token), now],
          );
          if (!row) throw err.code();
        } else {
          const email = emailSchema.safeParse(input.email);
          if (!email.success) throw err.email(String(input.email ?? ''));
          if (typeof input.code !== 'string' || !/^\d{6}$/.test(input.code)) throw err.code();
          [row] = await tx.query(
            `SELECT v.id, v.account_id, v.code_hash, v.attempts FROM verifications v JOIN accounts a ON a.id = v.account_id
          WHERE a.email = $1 AND v.used_at IS NULL AND v.expires_at > $2 ORDER BY v.expires_at DESC LIMIT 1`,
            [email.data, now],
          );
          // a wrong code is counted outside this (rolled back) transaction: see the catch below
          if (!row || !(await mayTry(tx, row, requester, now)) || !sameDigest(sha256(input.code), row.code_hash))
            throw err.code();
        }
        await tx.query('UPDATE verifications SET used_at = $2 WHERE id = $1', [row.id, now]);
        await tx.query('UPDATE accounts SET verified_at = coalesce(verified_at, $2) WHERE id = $1', [
          row.account_id,
          now,
        ]);
        const key = await this.insertKey(tx, row.account_id, 'first key', now);
        const [account] = await tx.query<Account>(
          'SELECT id, email, created_at, verified_at FROM accounts WHERE id = $1',
          [row.account_id],
        );
        return {
          account: { ...account, created_at: iso(account.created_at)!, verified_at: iso(account.verified_at) },
          api_key: key,
        };
      })
      .catch(async (e) => {
        // a wrong code's attempt count must survive the rollback of the failed transaction
        if (
          e instanceof ApiError &&
          e.body.code === 'invalid_code' &&
          typeof input.code === 'string' &&
          typeof input.email === 'string'
        ) {
          await recordFailure(this.sql, String(input.email).trim().toLowerCase(), requester, now);
        }
        throw e;
      });
  }

  private async insertKey(tx: Sql, accountId: string, name: string | null, now: Date) {
    const k = newApiKey();
    const id = newId('key');
    await tx.query(
      'INSERT INTO api_keys (id, account_id, prefix, hash, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, accountId, k.prefix, k.hash, name, now],
    );
    return { id, key: k.key, prefix: k.prefix, created_at: now.toISOString() };
  }

  /** The account of `Authorization: Bearer <key>`; 401 when missing, malformed, unknown or revoked. */
  async authenticate(header: string | undefined): Promise<Account> {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    if (!m) throw err.unauthorized('Missing API key.');
    const prefix = keyPrefix(m[1]);
    const [row] = prefix
      ? await this.sql.query<{ key_id: string; hash: string; revoked_at: string | null } & Account>(
          'SELECT k.id AS key_id, k.hash, k.revoked_at, a.id, a.email, a.created_at, a.verified_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.prefix = $1',
          [prefix],
        )
      : [];
    // compare even when no row was found, so timing does not tell which prefixes exist
    const ok = sameDigest(sha256(m[1]), row?.hash ?? sha256('no such key'));
    if (!row || !ok) throw err.unauthorized('The API key is not valid.');
    if (row.revoked_at) throw err.unauthorized('The API key was revoked.');
    await this.sql.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [row.key_id, this.o.clock()]);
    return { id: row.id, email: row.email, created_at: iso(row.created_at)!, verified_at: iso(row.verified_at) };
  }

  async createKey(a: Account, body: unknown) {
    const { name } = parse(z.object({ name: z.string().max(80).optional() }).strict(), body ?? {});
    return this.insertKey(this.sql, a.id, name ?? null, this.o.clock());
  }

  async listKeys(a: Account) {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT id, prefix, name, created_at, last_used_at, revoked_at FROM api_keys WHERE account_id = $1 ORDER BY created_at',
      [a.id],
    );
    return rows.map((r) => ({
      ...r,
      created_at: iso(r.created_at),
      last_used_at: iso(r.last_used_at),
      revoked_at: iso(r.revoked_at),
    }));
  }

  async revokeKey(a: Account, id: string): Promise<void> {
    const rows = await this.sql.query(
      'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3) WHERE id = $1 AND account_id = $2 RETURNING id',
      [id, a.id, this.o.clock()],
    );
    if (rows.length === 0) throw err.key(id);
  }

  async notices(a: Account) {
    const rows = await this.sql.query<Record<string, unknown>>(
      'SELECT at, kind, message FROM notices WHERE account_id = $1 ORDER BY at DESC LIMIT 50',
      [a.id],
    );
    return rows.map((r) => ({ ...r, at: iso(r.at) }));
  }

  // ---- rules ----

  private checkScope(scope: RuleInput['scope']): void {
    const atlas = loadAtlas();
    if ((scope.kind === 'county' || scope.kind === 'municipality') && !atlas.byFips.has(scope.fips))
      throw err.scope(`\`${scope.fips}\` is not a county FIPS code.`);
    if (scope.kind === 'state' && !findState(scope.state)) throw err.scope(`\`${scope.state}\` is not a state code.`);
  }

  private checkChannels(channels: ChannelInput[]): void {
    channels.forEach((c, i) => {
      if (c.type === 'email') return;
      const why = urlProblem(c.url, this.o.safety);
      if (why) throw err.unsafe(`channels.${i}.url`, why);
    });
  }

  private async watchedFor(tx: Sql, a: Account, input: RuleInput, exceptRule?: string): Promise<string[]> {
    if (!input.watch) return [];
    if (input.scope.kind === 'state' || input.scope.kind === 'utility')
      throw err.forbidden("`watch` hardens the polling of a county's sources: use a county or municipality scope.");
    const watched = [input.scope.fips];
    const [{ n }] = await tx.query<{ n: number }>(
      'SELECT count(DISTINCT w)::INT AS n FROM rules, unnest(watched) AS w WHERE account_id = $1 AND id <> $2 AND w <> $3',
      [a.id, exceptRule ?? '', input.scope.fips],
    );
    if (n + 1 > MAX_WATCHED_PER_ACCOUNT)
      throw err.forbidden(`An account can watch at most ${MAX_WATCHED_PER_ACCOUNT} counties.`);
    return watched;
  }

  async createRule(a: Account, body: unknown) {
    const input = parse(ruleInput, body);
    this.checkScope(input.scope);
    this.checkChannels(input.channels);
    const now = this.o.clock();
    const id = newId('rule');
    const pending = await this.sql.transaction(async (tx) => {
      await checkAccountLimits(tx, a.id, input.channels, null);
      const watched = await this.watchedFor(tx, a, input);
      const s = scopeColumns(input.scope);
      await tx.query(
        `INSERT INTO rules (id, account_id, name, scope_kind, scope_value, scope_state, kinds, min_customers, min_pct, quiet_start, quiet_end, quiet_tz, watched, sync_interval_min, next_sync_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
        [
          id,
          a.id,
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
          input.sync_interval_min ? now : null,
          now,
        ],
      );
      return replaceChannels(tx, a, id, input.channels);
    });
    await requestConfirmations(this.o, a.id, pending);
    return this.getRule(a, id, true);
  }

  /** A rule of the account (404 for another account's rule too: ids do not leak). `secrets`: include webhook secrets. */
  async getRule(a: Account, id: string, secrets = false) {
    const [r] = await this.sql.query<RuleRow>('SELECT * FROM rules WHERE id = $1 AND account_id = $2', [id, a.id]);
    if (!r) throw err.rule(id);
    const channels = await this.sql.query<ChannelRow>('SELECT * FROM channels WHERE rule_id = $1 ORDER BY id', [id]);
    return ruleDoc(r, channels, secrets);
  }

  async listRules(a: Account) {
    const rules = await this.sql.query<RuleRow>('SELECT * FROM rules WHERE account_id = $1 ORDER BY created_at, id', [
      a.id,
    ]);
    const channels = await this.sql.query<ChannelRow>(
      'SELECT c.* FROM channels c JOIN rules r ON r.id = c.rule_id WHERE r.account_id = $1 ORDER BY c.id',
      [a.id],
    );
    return rules.map((r) =>
      ruleDoc(
        r,
        channels.filter((c) => c.rule_id === r.id),
        false,
      ),
    );
  }

  async updateRule(a: Account, id: string, body: unknown) {
    const patch = parse(rulePatch, body);
    const current = await this.getRule(a, id);
    const merged = parse(ruleInput, { ...current.definition, ...patch });
    this.checkScope(merged.scope);
    this.checkChannels(merged.channels);
    const now = this.o.clock();
    const pending = await this.sql.transaction(async (tx) => {
      if (patch.channels) await checkAccountLimits(tx, a.id, merged.channels, id);
      const watched = await this.watchedFor(tx, a, merged, id);
      const s = scopeColumns(merged.scope);
      await tx.query(
        `UPDATE rules SET name = $3, scope_kind = $4, scope_value = $5, scope_state = $6, kinds = $7, min_customers = $8, min_pct = $9, quiet_start = $10, quiet_end = $11,
        quiet_tz = $12, watched = $13, sync_interval_min = $14, next_sync_at = CASE WHEN $14::INTEGER IS NULL THEN NULL ELSE coalesce(next_sync_at, $15) END, updated_at = $15 WHERE id = $1 AND account_id = $2`,
        [
          id,
          a.id,
          merged.name,
          s.scope_kind,
          s.scope_value,
          s.scope_state,
          merged.kinds,
          merged.min_customers,
          merged.min_pct,
          merged.quiet_hours?.start ?? null,
          merged.quiet_hours?.end ?? null,
          merged.quiet_hours?.timezone ?? null,
          watched,
          merged.sync_interval_min,
          now,
        ],
      );
      return patch.channels ? replaceChannels(tx, a, id, merged.channels) : [];
    });
    await requestConfirmations(this.o, a.id, pending);
    return this.getRule(a, id, Boolean(patch.channels));
  }

  async deleteRule(a: Account, id: string): Promise<void> {
    const rows = await this.sql.query('DELETE FROM rules WHERE id = $1 AND account_id = $2 RETURNING id', [id, a.id]);
    if (rows.length === 0) throw err.rule(id);
  }

  /** New signing secret for a webhook channel; the old one stays valid (and is also signed with) for `grace_hours`. */
  async rotateSecret(a: Account, ruleId: string, channelId: string, body: unknown) {
    const { grace_hours } = parse(
      z.object({ grace_hours: z.number().min(0).max(168).default(ROTATION_GRACE_H) }).strict(),
      body ?? {},
    );
    await this.getRule(a, ruleId);
    const now = this.o.clock();
    const secret = newSigningSecret();
    const rows = await this.sql.query<{ id: string }>(
      `UPDATE channels SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4
      WHERE id = $1 AND rule_id = $2 AND kind = 'webhook' RETURNING id`,
      [channelId, ruleId, new Date(now.getTime() + grace_hours * 3_600_000), secret],
    );
    if (rows.length === 0) throw err.channel(channelId);
    return {
      channel_id: channelId,
      secret,
      previous_secret_expires_at: new Date(now.getTime() + grace_hours * 3_600_000).toISOString(),
    };
  }

  /** Re-enables a channel that was disabled after sustained failure; held deliveries resume. */
  async enableChannel(a: Account, ruleId: string, channelId: string) {
    await this.getRule(a, ruleId);
    const rows = await this.sql.query(
      `UPDATE channels SET status = 'active', consecutive_failures = 0, first_failure_at = NULL, disabled_at = NULL, disabled_reason = NULL WHERE id = $1 AND rule_id = $2 RETURNING id`,
      [channelId, ruleId],
    );
    if (rows.length === 0) throw err.channel(channelId);
    await this.sql.query(
      `UPDATE deliveries SET status = 'pending', next_attempt_at = $2 WHERE channel_id = $1 AND status = 'held'`,
      [channelId, this.o.clock()],
    );
    return this.getRule(a, ruleId);
  }

  async deliveries(a: Account, ruleId: string, limitRaw: string | undefined) {
    await this.getRule(a, ruleId);
    const limit = limitRaw === undefined ? 50 : Number(limitRaw);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new ApiError({
        status: 400,
        code: 'invalid_parameter',
        param: 'limit',
        message: `Expected \`limit\` to be a whole number from 1 to 200, got \`${limitRaw}\`.`,
      });
    const rows = await this.sql.query<Record<string, unknown>>(
      `SELECT d.id, d.channel_id, d.kind, d.event_id, d.status, d.attempts, d.created_at, d.next_attempt_at, d.delivered_at,
        coalesce((SELECT json_agg(json_build_object('at', x.at, 'outcome', x.outcome, 'status_code', x.status_code, 'latency_ms', x.latency_ms, 'error', x.error) ORDER BY x.id)
                  FROM delivery_attempts x WHERE x.delivery_id = d.id), '[]'::json) AS attempt_log
      FROM deliveries d JOIN channels c ON c.id = d.channel_id WHERE c.rule_id = $1 ORDER BY d.created_at DESC, d.id LIMIT $2`,
      [ruleId, limit],
    );
    return rows.map((r) => ({
      ...r,
      created_at: iso(r.created_at),
      next_attempt_at: iso(r.next_attempt_at),
      delivered_at: iso(r.delivered_at),
      attempt_log: typeof r.attempt_log === 'string' ? JSON.parse(r.attempt_log) : r.attempt_log,
    }));
  }

  /** Opens an email channel's confirmation link (no key: the address's owner opens it). */
  confirmEmailChannel(token: unknown) {
    return confirmEmail(this.o, token);
  }

  /** Counties watched by any rule: their sources are polled hardened (the live core's hook). */
  async watchedCounties(): Promise<Set<string>> {
    const rows = await this.sql.query<{ w: string }>('SELECT DISTINCT unnest(watched) AS w FROM rules');
    return new Set(rows.map((r) => r.w));
  }
}

function ruleDoc(r: RuleRow, channels: ChannelRow[], secrets: boolean) {
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
      ...(secrets && c.secret ? { signing_secret: c.secret } : {}),
    })),
  };
}
