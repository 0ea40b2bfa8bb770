// `outage export-data`: the researchers' tables (Parquet + CSV + datapackage.json) from imported history.
import type { Command } from 'commander';
import path from 'node:path';
import { addCommonOptions, log, parseCommon } from './common.ts';
import { Db } from '../state/db.ts';
import { exportData } from '../history/export-data.ts';

export function register(program: Command): void {
  addCommonOptions(program.command('export-data').description('write the history tables as Parquet (zstd) and CSV with a datapackage.json'))
    .requiredOption('--to <dir>', 'destination directory (e.g. data/tables)')
    .option('--simulated', 'label the package as simulated data')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const db = await Db.open(cfg.state);
      try {
        const counts = await exportData(db, path.resolve(String(raw.to)), { simulated: Boolean(raw.simulated), generated_at: (cfg.now ?? new Date()).toISOString() });
        log(`export-data: ${Object.entries(counts).map(([t, n]) => `${t} ${n.toLocaleString('en-US')} rows`).join(', ')} → ${raw.to}`);
      } finally {
        db.close();
      }
    });
}
