// `outage history update`: refresh the imported history from the URLs of data/history-sources.json (history/update.ts).
// DuckDB and the updater load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import path from 'node:path';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';
import { UsageError } from '../errors.ts';
import type { FileOutcome } from '../history/update.ts';
import { formatImport } from './import.ts';

export const HISTORY_SOURCES = 'data/history-sources.json';
/** Beside the state database: what each entry's last good import was (sha256, bytes, years). */
export const UPDATE_STATE = 'history-update.json';

export function register(program: Command): void {
  const history = program
    .command('history')
    .description('keep the imported history current (EAGLE-I, OE-417, EIA-861)');
  addCommonOptions(
    history
      .command('update')
      .description(
        'download every file of the history sources file, import the new or changed ones (sha256) through the importers, then derive episodes and publish the reports; a failed download or a changed layout is reported and the previous data stays served',
      ),
  )
    .option('--sources-file <file>', 'history sources file (JSON)', HISTORY_SOURCES)
    .option('--only <ids>', 'comma-separated entry ids to run (default: all enabled entries)')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const [{ Db }, { loadHistorySources }, { derivePublish, updateHistory }] = await Promise.all([
        import('../state/db.ts'),
        import('../history/update-config.ts'),
        import('../history/update.ts'),
      ]);
      let sources = loadHistorySources(path.resolve(String(raw.sourcesFile)));
      if (raw.only) {
        const ids = String(raw.only)
          .split(',')
          .map((s) => s.trim());
        const unknown = ids.filter((id) => !sources.some((s) => s.id === id));
        if (unknown.length) throw new UsageError(`--only: no entry ${unknown.join(', ')} in ${raw.sourcesFile}.`);
        sources = sources.filter((s) => ids.includes(s.id));
      }
      const now = clockFor(cfg, true)();
      const db = await Db.open(cfg.state);
      try {
        const outcomes = await updateHistory(db, sources, {
          stateFile: path.join(cfg.state, UPDATE_STATE),
          now,
          onOutcome: (o) => log(formatOutcome(o)),
        });
        if (outcomes.some((o) => o.status === 'imported')) {
          const t0 = Date.now();
          const { episodes, published } = await derivePublish(db, cfg.out, now);
          log(
            `derived ${episodes.toLocaleString('en-US')} county outage episodes; ${published ? `report tables published to ${cfg.out}: ${published.written} files written, ${published.unchanged} unchanged, ${published.removed} removed` : 'reports already current'} · ${Date.now() - t0} ms`,
          );
        } else log('history update: nothing new was imported; the published history is unchanged');
        const failed = outcomes.filter((o) => o.status === 'failed');
        if (failed.length)
          throw new UsageError(
            `${failed.length} of ${outcomes.length} history files failed (${failed.map((o) => o.id).join(', ')}); the data imported before stays served. Fix the URL or \`member\` in ${raw.sourcesFile}, or wait for the publisher, and run again.`,
          );
      } finally {
        db.close();
      }
    });
}

export function formatOutcome(o: FileOutcome): string {
  const head = `${o.status.padEnd(9)} ${o.id} (${o.kind}): ${o.message}`;
  return o.summary ? `${head}\n${formatImport(o.summary, 0).split('\n').slice(1).join('\n')}`.trimEnd() : head;
}
