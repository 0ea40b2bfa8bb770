// Shared upstream-shape validation: a payload that does not match the vendor schema is a `schema` poll failure.
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
