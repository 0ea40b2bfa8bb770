// The `outage` CLI. The only place that calls process.exit.
import { CommanderError } from 'commander';
import { UsageError } from '../errors.ts';
import { buildProgram } from './program.ts';

try {
  await buildProgram().parseAsync(process.argv);
  process.exit(0);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  if (err instanceof UsageError) {
    process.stderr.write(`outage: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`outage: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
}
