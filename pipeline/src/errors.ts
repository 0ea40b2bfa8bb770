// Typed errors thrown deep and handled in one place (the CLI, the cycle, the function layer).

/** Why a poll failed, as recorded on the poll and published in `/live/sources` (`last_reason`). */
export type SourceFailure =
  | 'timeout'
  | 'network'
  /** the host name does not resolve: failed at once, never retried (a wrong name, or this machine is offline) */
  | 'dns'
  | 'http_status'
  | 'too_large'
  | 'bad_body'
  | 'schema'
  | 'config'
  | 'implausible_value';

/** A source could not be polled: the reason is recorded on the poll and the cycle goes on. */
export class SourceError extends Error {
  constructor(
    readonly reason: SourceFailure,
    message: string,
    /** the HTTP status, for `http_status` */
    readonly status?: number,
    /** seconds the upstream asked us to wait (Retry-After on 429/503) */
    readonly retryAfter?: number | null,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/**
 * A host that accepted no connection, or sent no headers, within its time-out: it failed at once and is never retried
 * (a dead or stalled host would otherwise spend the source's whole deadline on attempts that wait the same way).
 */
export class UnansweredError extends SourceError {
  constructor(message: string) {
    super('timeout', message);
    this.name = 'UnansweredError';
  }
}

/** Bad user input to the CLI (options, registry file): printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
