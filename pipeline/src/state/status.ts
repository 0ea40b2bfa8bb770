// Source status: the scheduler's and freshness rules' view of each source, loaded and saved as a whole per cycle
// (the rules themselves live in sources/scheduler.ts).
import type { Db } from './db.ts';
import { put } from './db.ts';

export interface SourceStatus {
  source_id: string;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_reason: string | null;
  last_error: string | null;
  consecutive_failures: number;
  snapshot_hash: string | null;
  hardened: boolean;
  next_due_at: string | null;
  basis: string | null;
  unit: string | null;
  notice: string | null;
  customers_out: number | null;
  customers_served: number | null;
  unmatched: number;
  /** records of the last good poll whose count could not be read (sources/unreadable.ts) */
  unreadable: number;
  /** of customers_out, those out for planned work; null when the feed does not tell planned from unplanned */
  planned_out: number | null;
  /** (deep − ODIN) / the larger of the two × 100, when both report the utility (state/reconcile.ts) */
  odin_delta_pct: number | null;
  /** consecutive reconciled cycles beyond the row's tolerance; flagged at 3 */
  odin_disagree_cycles: number;
}

const COLUMNS = [
  'source_id',
  'last_attempt_at',
  'last_success_at',
  'last_reason',
  'last_error',
  'consecutive_failures',
  'snapshot_hash',
  'hardened',
  'next_due_at',
  'basis',
  'unit',
  'notice',
  'customers_out',
  'customers_served',
  'unmatched',
  'odin_delta_pct',
  'odin_disagree_cycles',
  'unreadable',
  'planned_out',
] as const;
const INT_COLUMNS = new Set<string>([
  'consecutive_failures',
  'customers_out',
  'customers_served',
  'unmatched',
  'odin_disagree_cycles',
  'unreadable',
  'planned_out',
]);

export function blankStatus(id: string): SourceStatus {
  return {
    source_id: id,
    last_attempt_at: null,
    last_success_at: null,
    last_reason: null,
    last_error: null,
    consecutive_failures: 0,
    snapshot_hash: null,
    hardened: false,
    next_due_at: null,
    basis: null,
    unit: null,
    notice: null,
    customers_out: null,
    customers_served: null,
    unmatched: 0,
    odin_delta_pct: null,
    odin_disagree_cycles: 0,
    unreadable: 0,
    planned_out: null,
  };
}

export async function loadStatuses(db: Db): Promise<Map<string, SourceStatus>> {
  const rows = await db.all<SourceStatus>('SELECT * FROM source_status');
  return new Map(rows.map((r) => [r.source_id, r]));
}

export async function saveStatuses(db: Db, statuses: Iterable<SourceStatus>): Promise<void> {
  await db.staging('status_in', 'AS SELECT * FROM source_status LIMIT 0');
  const a = await db.appender('status_in');
  for (const s of statuses) {
    for (const c of COLUMNS) {
      const v = s[c];
      const kind = INT_COLUMNS.has(c) ? 'int' : c === 'hardened' ? 'bool' : c === 'odin_delta_pct' ? 'real' : 'text';
      if (kind === 'int' && v !== null && v !== undefined) a.appendInteger(Number(v));
      else put(a, (v ?? null) as string | number | boolean | null, kind === 'int' ? 'text' : kind);
    }
    a.endRow();
  }
  a.closeSync();
  await db.run('INSERT OR REPLACE INTO source_status SELECT * FROM status_in');
}
