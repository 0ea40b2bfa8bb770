// Shared upstream parsing: a body that is not JSON is a `bad_body` poll failure, a payload that does not match the
// vendor schema a `schema` one.
import type { z } from 'zod';
import { SourceError } from '../errors.ts';

export function parseUpstream<T extends z.ZodType>(schema: T, raw: unknown, what: string): z.infer<T> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  throw new SourceError(
    'schema',
    `${what} has an unexpected shape: ${first.path.join('.') || '(root)'}: ${first.message}`,
  );
}

/** A body that is not JSON (an HTML error page, a truncated answer) is a `bad_body` poll failure. */
export function parseJson(url: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new SourceError('bad_body', `${url} did not return JSON (starts with ${JSON.stringify(body.slice(0, 40))})`);
  }
}
