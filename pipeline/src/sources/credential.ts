// Credentialed feeds (issue 26 part 2): a row names the environment variable a deployment sets, never the key itself.
// The project holds no key and never lifts one out of a page's JavaScript; the value lives only in the environment.
import { SourceError } from '../errors.ts';

/** The environment credentials are read from (process.env; tests pass their own). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The variable a row's `options.credential_env` names, or null when it names none. */
export function credentialEnv(options: Record<string, unknown>): string | null {
  const name = options.credential_env;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

/**
 * The credential the row's variable holds, or null when the row names none or the variable is unset or blank. Null is
 * not an error here: a replay of a saved answer (`outage sources parse`) runs the same fetch and needs no credential,
 * and a gated row without its variable is never polled (parseRegistry).
 */
export function credentialOf(options: Record<string, unknown>, env: Env = process.env): string | null {
  const name = credentialEnv(options);
  const value = name ? env[name]?.trim() : undefined;
  return value ? value : null;
}

/** A 401 or 403 from a credentialed feed with what to do about it; any other failure is returned as it is. */
export function explainRefusal(err: unknown, options: Record<string, unknown>, feed: string): unknown {
  if (!(err instanceof SourceError) || (err.status !== 401 && err.status !== 403)) return err;
  const name = credentialEnv(options);
  const why = !name
    ? 'the row names no options.credential_env'
    : credentialOf(options)
      ? `the value of ${name} was refused (expired or rotated? set the current one)`
      : `set ${name} in the environment`;
  return new SourceError(err.reason, `${err.message}; ${feed} needs a credential: ${why}`, err.status, err.retryAfter);
}
