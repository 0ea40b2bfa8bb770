// The commander program with every command registered (index.ts runs it; the docs test reads it).
import { Command } from 'commander';
import { register as poll } from './poll.ts';
import { register as build } from './build.ts';
import { register as serve } from './serve.ts';
import { register as start } from './start.ts';
import { register as sources } from './sources.ts';
import { register as hostConfig } from './host-config.ts';
import { register as exportCmd } from './export.ts';
import { register as simulate } from './simulate.ts';
import { register as importCmd } from './import.ts';
import { register as exportData } from './export-data.ts';
import { register as coverage } from './coverage.ts';
import { register as history } from './history-update.ts';
import { register as upload } from './upload-options.ts';

export function buildProgram(): Command {
  const program = new Command('outage')
    .description('US power outage data: poll utility feeds, publish a prebuilt /api/v1 tree, serve it')
    .showHelpAfterError()
    .exitOverride();
  for (const r of [
    start,
    poll,
    build,
    serve,
    sources,
    simulate,
    exportCmd,
    upload,
    hostConfig,
    importCmd,
    exportData,
    coverage,
    history,
  ])
    r(program);
  return program;
}
