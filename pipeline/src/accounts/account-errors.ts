// The account endpoints' error answers (one place for their codes, params and messages), and a request body parsed
// against its schema: the first problem answers 400 `invalid_body`, naming its field.
import type { z } from 'zod';
import { ApiError } from '../contract/errors.ts';

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
};

export function parse<T extends z.ZodTypeAny>(schema: T, body: unknown): z.infer<T> {
  const r = schema.safeParse(body);
  if (!r.success) throw err.body(r.error.issues);
  return r.data;
}
