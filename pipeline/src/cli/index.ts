// The `outage` CLI. The only place that calls process.exit.
import { CommanderError } from 'commander';
import { SourceError, UsageError } from '../errors.ts';
import { buildProgram } from './program.ts';
import { terminalLines } from '../terminal-text.ts';

/** Errors quote upstream text (names, answers): escaped for the terminal. */
const fail = (text: string): void => void process.stderr.write(`outage: ${terminalLines(text)}\n`);

try {
  await buildProgram().parseAsync(process.argv);
  // Let a large answer on a pipe drain before exiting (process.exit would cut it at 64 KB).
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  process.exit(0);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof UsageError) {
    fail(err.message);
    process.exit(2);
  }
  // An object store that refused an upload: its message says what to check (credentials, bucket, endpoint).
  // Loaded only here: the S3 client is not on the path of every command.
  const { ObjectStoreError } = await import('../publish/object-store.ts');
  if (err instanceof ObjectStoreError) {
    fail(err.message);
    process.exit(1);
  }
  // A source that could not be fetched or parsed (sources probe/parse): its reason and message, no stack.
  if (err instanceof SourceError) {
    fail(`${err.reason}: ${err.message}`);
    process.exit(1);
  }
  fail((err as Error).stack ?? String(err));
  process.exit(1);
}
