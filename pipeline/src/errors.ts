// Typed errors thrown deep and handled in one place (the CLI, the cycle, the function layer).

/** A source could not be polled: the reason is recorded on the poll and the cycle goes on. */
export class SourceError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'http_status' | 'too_large' | 'bad_body' | 'schema' | 'config',
    message: string,
    /** the HTTP status, for `http_status` */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

/** Bad user input to the CLI (options, registry file): printed without a stack, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
