// `outage import <kind> FILE…`: load history files through the real importers (see history/import.ts).
import type { Command } from 'commander';
import path from 'node:path';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';
import { publishHistoryIfChanged } from '../publish/reports.ts';
import { UsageError } from '../errors.ts';
import { Db } from '../state/db.ts';
import {
  importCoverage,
  importEagleI,
  importEia861,
  importMcc,
  importOe417,
  type ImportSummary,
} from '../history/import.ts';
import { fetchToFile } from '../history/download.ts';
import { deriveEpisodes } from '../history/derive.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import { progressReporter } from './progress.ts';
import { markHistoryChanged } from '../history/version.ts';

export const IMPORT_KINDS = {
  eaglei: importEagleI,
  mcc: importMcc,
  coverage: importCoverage,
  oe417: importOe417,
  eia861: importEia861,
} as const;

export function register(program: Command): void {
  addCommonOptions(
    program
      .command('import')
      .description(
        'import history files or URLs: eaglei (county outage CSVs), mcc (modelled county customers), coverage (EAGLE-I coverage_history.csv), oe417 (DOE disturbance .xls/.xlsx), eia861 (Reliability, Service_Territory, Sales_Ult_Cust .xlsx)',
      ),
  )
    .argument('<kind>', `one of ${Object.keys(IMPORT_KINDS).join(', ')}`)
    .argument('<files...>', 'files or http(s) URLs (downloaded to a temporary file first)')
    .action(async (kind: string, files: string[], raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const run = IMPORT_KINDS[kind as keyof typeof IMPORT_KINDS];
      if (!run)
        throw new UsageError(`Unknown import kind \`${kind}\`; use one of ${Object.keys(IMPORT_KINDS).join(', ')}.`);
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
        await markHistoryChanged(db);
        log(`derived ${episodes.toLocaleString('en-US')} county outage episodes · ${Date.now() - t1} ms`);
        const hs = await publishHistoryIfChanged(db, cfg.out, { now: clockFor(cfg, true)() });
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
