// The account, key and rule endpoints of the function layer (routes declared in the catalogue's FUNCTION_ENDPOINTS).
// Bodies are JSON objects of at most 64 KB; every answer uses the one envelope: `{ "data": … }` or the error body.
import type { Context } from 'hono';
import { ApiError } from '../contract/errors.ts';
import { FUNCTION_ENDPOINTS } from '../contract/catalogue.ts';
import type { AccountService } from './service.ts';
import type { Account } from './account-types.ts';

export const ACCOUNT_IDS = new Set(FUNCTION_ENDPOINTS.filter((f) => !f.kind).map((f) => f.id));
const MAX_BODY = 64 * 1024;

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.length > MAX_BODY)
    throw new ApiError({
      status: 400,
      code: 'invalid_body',
      param: 'body',
      message: `The body is larger than ${MAX_BODY / 1024} KB.`,
    });
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v;
  } catch {
    throw new ApiError({
      status: 400,
      code: 'invalid_body',
      param: 'body',
      message: 'The body is not a JSON object. Send `Content-Type: application/json` with an object.',
    });
  }
}

/**
 * `requester`: the client's address (rate-limit.ts's `clientOf`), whose network a sign-in code belongs to and against
 * which guesses count (sign-in-network.ts).
 */
export async function accountRoute(
  c: Context,
  id: string,
  params: Record<string, string>,
  svc: AccountService | undefined,
  requester?: string,
) {
  if (!svc)
    throw new ApiError({
      status: 503,
      code: 'accounts_unavailable',
      message: 'Accounts are not configured on this deployment (no account database).',
    });
  c.header('Cache-Control', 'no-store');
  const ok = (data: unknown, status: 200 | 201 | 202 = 200) => c.json({ data }, status);
  const fn = FUNCTION_ENDPOINTS.find((f) => f.id === id)!;
  let account: Account | null = null;
  if (fn.auth) account = await svc.authenticate(c.req.header('Authorization'));
  const a = account!;
  switch (id) {
    case 'accounts.create':
      return ok(await svc.requestVerification(await jsonBody(c), requester), 202);
    case 'accounts.verify':
      return ok(await svc.verify((await jsonBody(c)) as Record<string, unknown>, requester));
    case 'accounts.verify.link':
      return ok(await svc.verify({ token: c.req.query('token') ?? '' }, requester));
    case 'email.confirm':
      return ok(await svc.confirmEmailChannel(c.req.query('token') ?? ''));
    case 'account.get':
      return ok({ account: a, keys: await svc.listKeys(a), notices: await svc.notices(a) });
    case 'keys.list':
      return ok({ keys: await svc.listKeys(a) });
    case 'keys.create':
      return ok(await svc.createKey(a, await jsonBody(c)), 201);
    case 'keys.revoke':
      await svc.revokeKey(a, params.id);
      return c.body(null, 204);
    case 'rules.list':
      return ok({ rules: await svc.listRules(a) });
    case 'rules.create':
      return ok(await svc.createRule(a, await jsonBody(c)), 201);
    case 'rules.get':
      return ok(await svc.getRule(a, params.id));
    case 'rules.update':
      return ok(await svc.updateRule(a, params.id, await jsonBody(c)));
    case 'rules.delete':
      await svc.deleteRule(a, params.id);
      return c.body(null, 204);
    case 'rules.deliveries':
      return ok({ deliveries: await svc.deliveries(a, params.id, c.req.query('limit')) });
    case 'rules.rotate':
      return ok(await svc.rotateSecret(a, params.id, params.channel_id, await jsonBody(c)));
    case 'rules.enable':
      return ok(await svc.enableChannel(a, params.id, params.channel_id));
    default:
      throw new ApiError({ status: 404, code: 'not_found', message: `No endpoint at \`${c.req.path}\`.` });
  }
}
