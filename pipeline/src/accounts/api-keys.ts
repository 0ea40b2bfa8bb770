// API keys: issued at sign-in and on request, listed by prefix and last use, revoked; a request's
// `Authorization: Bearer <key>` is checked against their hashes (the key itself is shown once, never stored).
import { z } from 'zod';
import { err, parse } from './account-errors.ts';
import { iso, type Account, type AccountServiceOptions } from './account-types.ts';
import { keyPrefix, newApiKey, newId, sameDigest, sha256 } from './secrets.ts';
import type { Sql } from './sql.ts';

export type NewKey = { id: string; key: string; prefix: string; created_at: string };

export async function insertKey(tx: Sql, accountId: string, name: string | null, now: Date): Promise<NewKey> {
  const k = newApiKey();
  const id = newId('key');
  await tx.query(
    'INSERT INTO api_keys (id, account_id, prefix, hash, name, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, accountId, k.prefix, k.hash, name, now],
  );
  return { id, key: k.key, prefix: k.prefix, created_at: now.toISOString() };
}

/** The account of `Authorization: Bearer <key>`; 401 when missing, malformed, unknown or revoked. */
export async function authenticate(o: AccountServiceOptions, header: string | undefined): Promise<Account> {
  const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  if (!m) throw err.unauthorized('Missing API key.');
  const prefix = keyPrefix(m[1]);
  const [row] = prefix
    ? await o.sql.query<{ key_id: string; hash: string; revoked_at: string | null } & Account>(
        'SELECT k.id AS key_id, k.hash, k.revoked_at, a.id, a.email, a.created_at, a.verified_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.prefix = $1',
        [prefix],
      )
    : [];
  // compare even when no row was found, so timing does not tell which prefixes exist
  const ok = sameDigest(sha256(m[1]), row?.hash ?? sha256('no such key'));
  if (!row || !ok) throw err.unauthorized('The API key is not valid.');
  if (row.revoked_at) throw err.unauthorized('The API key was revoked.');
  await o.sql.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [row.key_id, o.clock()]);
  return { id: row.id, email: row.email, created_at: iso(row.created_at)!, verified_at: iso(row.verified_at) };
}

export async function createKey(o: AccountServiceOptions, a: Account, body: unknown): Promise<NewKey> {
  const { name } = parse(z.object({ name: z.string().max(80).optional() }).strict(), body ?? {});
  return insertKey(o.sql, a.id, name ?? null, o.clock());
}

export async function listKeys(o: AccountServiceOptions, a: Account) {
  const rows = await o.sql.query<Record<string, unknown>>(
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

export async function revokeKey(o: AccountServiceOptions, a: Account, id: string): Promise<void> {
  const rows = await o.sql.query(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, $3) WHERE id = $1 AND account_id = $2 RETURNING id',
    [id, a.id, o.clock()],
  );
  if (rows.length === 0) throw err.key(id);
}
