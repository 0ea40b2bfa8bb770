// `outage import <kind> FILE…`: load history files through the real importers (see history/import.ts). The
// importers, DuckDB and the report publisher load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import path from 'node:path';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';
import { UsageError } from '../errors.ts';
import type { ImportSummary } from '../history/import.ts';
import { progressReporter } from './progress.ts';

/** The kinds of history file, in the order `outage import` lists them. */
export const IMPORT_KINDS = ['eaglei', 'mcc', 'coverage', 'oe417', 'eia861'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The importer of one kind (history/import.ts). */
export async function importerOf(kind: ImportKind) {
  const m = await import('../history/import.ts');
  return {
    eaglei: m.importEagleI,
    mcc: m.importMcc,
    coverage: m.importCoverage,
    oe417: m.importOe417,
    eia861: m.importEia861,
  }[kind];
}

export function register(program: Command): void {
  addCommonOptions(
    program
      .command('import')
      .description(
        'import history files or URLs: eaglei (county outage CSVs), mcc (modelled county customers), coverage (EAGLE-I coverage_history.csv), oe417 (DOE disturbance .xls/.xlsx), eia861 (Reliability, Service_Territory, Sales_Ult_Cust .xlsx)',
      ),
  )
    .argument('<kind>', `one of ${IMPORT_KINDS.join(', ')}`)
    .argument('<files...>', 'files or http(s) URLs (downloaded to a temporary file first)')
    .action(async (kind: string, files: string[], raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      if (!(IMPORT_KINDS as readonly string[]).includes(kind))
        throw new UsageError(`Unknown import kind \`${kind}\`; use one of ${IMPORT_KINDS.join(', ')}.`);
      const run = await importerOf(kind as ImportKind);
      const [{ Db }, { fetchToFile }, { deriveEpisodes }, { countyModel, loadCountyModel }, version, reports] =
        await Promise.all([
          import('../state/db.ts'),
          import('../history/download.ts'),
          import('../history/derive.ts'),
          import('../geo/county-model.ts'),
          import('../history/version.ts'),
          import('../publish/reports.ts'),
        ]);
      const db = await Db.open(cfg.state);
      try {
        for (const arg of files) {
          const download = /^https?:\/\//i.test(arg) ? await fetchToFile(arg) : null;
          try {
            const file = download?.file ?? path.resolve(arg);
            const progress = progressReporter(`${kind} ${path.basename(file)}`);
            const t0 = Date.now();
            const s = await run(db, file, (f) => progress.onProgress(Math.round(f * 100), 100));
            progress.stop();
            log(formatImport(s, Date.now() - t0));
          } finally {
            download?.cleanup();
          }
        }
        // Episodes depend on the series and on the denominators (MCC): derive them again, then mark history changed
        // so the next publish re-reads it.
        const t1 = Date.now();
        const episodes = await deriveEpisodes(db, await countyModel(db, loadCountyModel()));
        await version.markHistoryChanged(db);
        log(`derived ${episodes.toLocaleString('en-US')} county outage episodes · ${Date.now() - t1} ms`);
        const hs = await reports.publishHistoryIfChanged(db, cfg.out, { now: clockFor(cfg, true)() });
        if (hs)
          log(
            `report tables published to ${cfg.out}: ${hs.written.toLocaleString('en-US')} files written, ${hs.unchanged.toLocaleString('en-US')} unchanged, ${hs.removed} removed · ${hs.ms} ms; county profiles and charts follow with the next \`outage build\` or poll cycle`,
          );
      } finally {
        db.close();
      }
    });
}

export function formatImport(s: ImportSummary, ms: number): string {
  const lines = [
    `import ${s.kind} ${path.basename(s.file)}: ${s.rows_read.toLocaleString('en-US')} rows read, ${s.rows_loaded.toLocaleString('en-US')} loaded, ${s.rows_rejected.toLocaleString('en-US')} rejected${s.years.length ? `, years ${s.years.join(', ')}` : ''} · ${ms} ms`,
  ];
  for (const [reason, n] of Object.entries(s.reasons)) lines.push(`  rejected ${n}× ${reason}`);
  for (const r of s.rejects.slice(0, 10)) lines.push(`  line ${r.line}: ${r.reason}`);
  return lines.join('\n');
}
