// `outage sources`: the registry with each source's live status from the state database. DuckDB and the health
// queries load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import { addCommonOptions, clockFor, loadSources, log, parseCommon } from './common.ts';
import type { SourceStatus } from '../state/status.ts';
import type { SourceHealth } from '../state/health.ts';
import { registerCheck } from './sources-check.ts';
import { registerParse, registerProbe } from './sources-probe.ts';
import { registerVerify } from './sources-verify.ts';
import { terminalJson, terminalText } from '../terminal-text.ts';

export function register(program: Command): void {
  const sources = addCommonOptions(
    program.command('sources').description("list the registry with each source's live status"),
  )
    .option('--json', 'print JSON instead of a table')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const [{ Db }, { loadStatuses }, { sourceHealth }, { freshness }] = await Promise.all([
        import('../state/db.ts'),
        import('../state/status.ts'),
        import('../state/health.ts'),
        import('../sources/scheduler.ts'),
      ]);
      const registry = await loadSources(cfg.sources, log);
      const now = clockFor(cfg, true)();
      let statuses = new Map<string, SourceStatus>();
      let health = new Map<string, SourceHealth>();
      try {
        const db = await Db.open(cfg.state);
        statuses = await loadStatuses(db);
        health = await sourceHealth(db, registry, statuses, now);
        db.close();
      } catch (err) {
        log(`(no live status: ${(err as Error).message.split('\n')[0]})`);
      }
      const rows = registry.map((s) => {
        const st = statuses.get(s.id);
        return {
          id: s.id,
          utility: s.utility,
          connector: s.connector,
          tier: s.tier,
          interval_min: s.interval_min,
          freshness: st ? freshness(s, st, now) : 'never polled',
          last_success_at: st?.last_success_at ?? null,
          next_due_at: st?.next_due_at ?? null,
          customers_out: st?.customers_out ?? null,
          last_error: st?.last_error ?? null,
          health: health.get(s.id) ?? null,
        };
      });
      if (raw.json) {
        process.stdout.write(`${terminalJson(rows)}\n`);
        return;
      }
      const pct = (v: number | null | undefined) => (v === null || v === undefined ? '' : `${Math.round(v * 100)} %`);
      console.table(
        rows.map(({ health: h, ...r }) => ({
          ...r,
          // Upstream text (a message quoting an answer) and registry names are escaped for the terminal.
          utility: terminalText(r.utility),
          last_error: terminalText(r.last_error?.slice(0, 60) ?? ''),
          ok_24h: pct(h?.last_24h.success_rate),
          median_ms_24h: h?.last_24h.median_fetch_ms ?? '',
          stale_min_24h: h?.last_24h.minutes_stale ?? '',
          ok_7d: pct(h?.last_7d.success_rate),
          stale_min_7d: h?.last_7d.minutes_stale ?? '',
        })),
      );
    });
  registerCheck(sources);
  registerProbe(sources);
  registerParse(sources);
  registerVerify(sources);
}
