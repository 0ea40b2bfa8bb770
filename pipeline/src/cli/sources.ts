// `outage sources`: the registry with each source's live status from the state database.
import type { Command } from 'commander';
import { addCommonOptions, clockFor, loadSources, log, parseCommon } from './common.ts';
import { Db } from '../state/db.ts';
import { loadStatuses } from '../state/status.ts';
import { freshness } from '../sources/scheduler.ts';
import { registerCheck } from './sources-check.ts';

export function register(program: Command): void {
  const sources = addCommonOptions(program.command('sources').description('list the registry with each source\'s live status'))
    .option('--json', 'print JSON instead of a table')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const registry = loadSources(cfg.sources, log);
      const now = clockFor(cfg, true)();
      let statuses = new Map<string, Awaited<ReturnType<typeof loadStatuses>> extends Map<string, infer V> ? V : never>();
      try {
        const db = await Db.open(cfg.state);
        statuses = await loadStatuses(db);
        db.close();
      } catch (err) {
        log(`(no live status: ${(err as Error).message.split('\n')[0]})`);
      }
      const rows = registry.map((s) => {
        const st = statuses.get(s.id);
        return {
          id: s.id, utility: s.utility, connector: s.connector, tier: s.tier, interval_min: s.interval_min,
          freshness: st ? freshness(s, st, now) : 'never polled', last_success_at: st?.last_success_at ?? null,
          next_due_at: st?.next_due_at ?? null, customers_out: st?.customers_out ?? null, last_error: st?.last_error ?? null,
        };
      });
      if (raw.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      console.table(rows.map((r) => ({ ...r, last_error: r.last_error?.slice(0, 60) ?? '' })));
    });
  registerCheck(sources);
}
