// `outage export-data`: the researchers' tables (Parquet + CSV + datapackage.json) from imported history. DuckDB and
// the exporters load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import path from 'node:path';
import { addCommonOptions, log, parseCommon } from './common.ts';

export function register(program: Command): void {
  addCommonOptions(
    program
      .command('export-data')
      .description(
        'write the history and report tables as Parquet (zstd) and CSV (large ones partitioned by year) with a datapackage.json',
      ),
  )
    .requiredOption('--to <dir>', 'destination directory (e.g. data/tables)')
    .option('--simulated', 'label the package as simulated data (automatic when the loaded history is SIMULATED)')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const [{ Db }, { exportData }, { computeReports }, { countyModel, loadCountyModel }, { historySimulated }] =
        await Promise.all([
          import('../state/db.ts'),
          import('../history/export-data.ts'),
          import('../history/reports.ts'),
          import('../geo/county-model.ts'),
          import('../history/provenance.ts'),
        ]);
      const db = await Db.open(cfg.state);
      try {
        const now = cfg.now ?? new Date();
        const { archivedIncidentFiles } = await import('../publish/archive.ts');
        const model = await countyModel(db, loadCountyModel());
        const reports = await computeReports(db, model, now, archivedIncidentFiles(cfg.out));
        // Simulated history stays labelled whether or not --simulated is given.
        const simulated = Boolean(raw.simulated) || (await historySimulated(db));
        const counts = await exportData(
          db,
          path.resolve(String(raw.to)),
          { simulated, generated_at: now.toISOString() },
          reports,
        );
        log(
          `export-data: ${Object.entries(counts)
            .map(([t, n]) => `${t} ${n.toLocaleString('en-US')} rows`)
            .join(', ')} → ${raw.to}`,
        );
      } finally {
        db.close();
      }
    });
}
