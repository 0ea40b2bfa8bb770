// What `outage sources` lists (issue 38 part 7: beside `npm start` it listed the 376 shipped rows "never polled", not
// the simulated ones the server polls): every row of the registry the state directory is polled from, with its
// status from the state database; while a running `start` or `poll` holds that database (DuckDB lets one process in),
// from the sources document it last published. Statuses are matched to registry rows by id.
import fs from 'node:fs';
import path from 'node:path';
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { PublishedTree } from '../publish/published-tree.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { SourceHealth } from '../state/health.ts';

export interface SourceRow {
  id: string;
  utility: string;
  connector: string;
  tier: number;
  interval_min: number;
  freshness: 'fresh' | 'stale' | 'never polled';
  last_success_at: string | null;
  next_due_at: string | null;
  customers_out: number | null;
  last_reason: string | null;
  last_error: string | null;
  health: SourceHealth | null;
}

/** Where the statuses came from, said beside the table. */
export type StatusFrom =
  | { from: 'state'; dir: string }
  | { from: 'published'; file: string; generated_at: string; because: string }
  | { from: 'none'; because: string };

type Status = Omit<SourceRow, 'id' | 'utility' | 'connector' | 'tier' | 'interval_min'>;
const NEVER: Status = {
  freshness: 'never polled',
  last_success_at: null,
  next_due_at: null,
  customers_out: null,
  last_reason: null,
  last_error: null,
  health: null,
};

/** Each registry row with its status (`never polled` without one). */
export function sourceRows(registry: readonly SourceDef[], statuses: Map<string, Status>): SourceRow[] {
  return registry.map((s) => ({
    id: s.id,
    utility: s.utility,
    connector: s.connector,
    tier: s.tier,
    interval_min: s.interval_min,
    ...(statuses.get(s.id) ?? NEVER),
  }));
}

/** The statuses in the state database, or why they cannot be read (another process holds it). */
async function fromState(
  stateDir: string,
  registry: SourceDef[],
  now: Date,
): Promise<Map<string, Status> | { because: string }> {
  const [{ Db }, { loadStatuses }, { sourceHealth }, { freshness }] = await Promise.all([
    import('../state/db.ts'),
    import('../state/status.ts'),
    import('../state/health.ts'),
    import('../sources/scheduler.ts'),
  ]);
  const db = await Db.open(stateDir).catch((err: Error) => ({ because: err.message.split('\n')[0] }));
  if ('because' in db) return db;
  try {
    const statuses = await loadStatuses(db);
    const health = await sourceHealth(db, registry, statuses, now);
    const out = new Map<string, Status>();
    for (const s of registry) {
      const st = statuses.get(s.id);
      if (!st) continue;
      out.set(s.id, {
        freshness: freshness(s, st, now),
        last_success_at: st.last_success_at,
        next_due_at: st.next_due_at,
        customers_out: st.customers_out,
        last_reason: st.last_reason,
        last_error: st.last_error,
        health: health.get(s.id) ?? null,
      });
    }
    return out;
  } finally {
    db.close();
  }
}

interface PublishedSource {
  id: string;
  updated_at: string | null;
  last_success_at: string | null;
  stale_after: string | null;
  next_due_at: string;
  customers_out: number | null;
  last_error: { reason: string; message: string } | null;
  health: SourceHealth | null;
}

/** The statuses of the sources document in `outDir`, freshness judged now by each source's published `stale_after`. */
function fromPublished(outDir: string, simulated: boolean, now: Date) {
  const file = fileFor(endpoint('live.sources'), {}, 'json');
  const doc = new PublishedTree(outDir).data<{ simulated: boolean; sources: PublishedSource[] }>(file);
  if (!doc) return null;
  if (doc.simulated !== simulated) return null; // another deployment's tree (`--live` publishes to public-live)
  const out = new Map<string, Status>();
  for (const s of doc.sources) {
    if (s.updated_at === null) continue;
    const stale = s.stale_after === null || Date.parse(s.stale_after) <= now.getTime();
    out.set(s.id, {
      freshness: stale ? 'stale' : 'fresh',
      last_success_at: s.last_success_at,
      next_due_at: s.next_due_at,
      customers_out: s.customers_out,
      last_reason: s.last_error?.reason ?? null,
      last_error: s.last_error?.message ?? null,
      health: s.health,
    });
  }
  return { statuses: out, file: path.join(outDir, file), generated_at: doc.generated_at };
}

/** The registry's rows with their statuses, and where those came from. */
export async function sourcesStatus(
  o: { stateDir: string; outDir: string; simulated: boolean; now: Date },
  registry: SourceDef[],
): Promise<{ rows: SourceRow[]; status: StatusFrom }> {
  // Nothing has polled here: no database is made just to list the registry, and another state's tree is not read.
  if (!fs.existsSync(path.join(o.stateDir, 'outage.duckdb')))
    return {
      rows: sourceRows(registry, new Map()),
      status: { from: 'none', because: `no state database in ${o.stateDir}` },
    };
  const state = await fromState(o.stateDir, registry, o.now);
  if (state instanceof Map) return { rows: sourceRows(registry, state), status: { from: 'state', dir: o.stateDir } };
  const published = fromPublished(o.outDir, o.simulated, o.now);
  if (!published) return { rows: sourceRows(registry, new Map()), status: { from: 'none', because: state.because } };
  const { statuses, file, generated_at } = published;
  return {
    rows: sourceRows(registry, statuses),
    status: { from: 'published', file, generated_at, because: state.because },
  };
}
