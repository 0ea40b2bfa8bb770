// The `outage` CLI. The only place that calls process.exit.
import { Command, CommanderError } from 'commander';
import { UsageError } from '../errors.ts';
import { register as poll } from './poll.ts';
import { register as build } from './build.ts';
import { register as serve } from './serve.ts';
import { register as start } from './start.ts';
import { register as sources } from './sources.ts';
import { register as hostConfig } from './host-config.ts';
import { register as exportCmd } from './export.ts';
import { register as simulate } from './simulate.ts';

const program = new Command('outage')
  .description('US power outage data: poll utility feeds, publish a prebuilt /api/v1 tree, serve it')
  .showHelpAfterError()
  .exitOverride();
for (const r of [start, poll, build, serve, sources, simulate, exportCmd, hostConfig]) r(program);

try {
  await program.parseAsync(process.argv);
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
