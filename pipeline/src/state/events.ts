// Runs the lifecycle over a cycle's observations and stores outages and events durably in DuckDB.
import { createHash } from 'node:crypto';
import type { DuckDBAppender } from '@duckdb/node-api';
import type { Db } from './db.ts';
import { put } from './db.ts';
import { freshnessEvent, step, type EventDraft, type Observation, type OutageState } from './lifecycle.ts';
import { freshness } from '../sources/scheduler.ts';
import type { CycleContext } from './observe.ts';

export interface EventRow extends EventDraft {
  id: number;
  at: string;
}

const OUTAGE_COLUMNS = [
  'id',
  'scope',
  'key',
  'fips',
  'state',
  'utility',
  'area',
  'opened_at',
  'threshold',
  'peak',
  'last_value',
  'below_polls',
  'grew_base',
  'improving_base',
  'etr',
  'major',
] as const;
const INT_COLUMNS = new Set(['threshold', 'peak', 'last_value', 'below_polls', 'grew_base', 'improving_base']);

async function openOutages(db: Db): Promise<Map<string, OutageState>> {
  const rows = await db.all<OutageState>(
    `SELECT ${OUTAGE_COLUMNS.join(', ')}, crew_status FROM outages WHERE closed_at IS NULL`,
  );
  return new Map(rows.map((r) => [`${r.scope}|${r.key}`, r]));
}

function appendOutage(a: DuckDBAppender, s: OutageState, closedAt: string | null): void {
  for (const c of OUTAGE_COLUMNS) {
    const v = s[c];
    if (INT_COLUMNS.has(c)) a.appendBigInt(BigInt(Math.round(v as number)));
    else put(a, v as string | boolean | null, c === 'major' ? 'bool' : 'text');
  }
  put(a, closedAt);
  put(a, s.crew_status ?? null); // after closed_at: the column an ALTER appended
  a.endRow();
}

export async function appendEvents(db: Db, drafts: EventDraft[], at: string): Promise<EventRow[]> {
  if (drafts.length === 0) return [];
  const [{ max }] = await db.all<{ max: number | null }>('SELECT max(id) AS max FROM events');
  let id = max ?? 0;
  const rows = drafts.map((d) => ({ ...d, id: ++id, at }));
  const a = await db.appender('events');
  for (const e of rows) {
    a.appendBigInt(BigInt(e.id));
    put(a, e.at);
    put(a, e.kind);
    put(a, e.scope);
    put(a, e.fips);
    put(a, e.state);
    put(a, e.utility);
    put(a, e.area);
    put(a, e.source_id);
    put(a, e.outage_id);
    put(a, e.customers_out, 'int');
    put(a, e.pct_out, 'real');
    put(a, e.threshold, 'int');
    put(a, e.previous, 'int');
    put(a, e.etr);
    put(a, e.previous_etr);
    put(a, e.etr_slip_min ?? null, 'int');
    put(a, e.incident_id ?? null);
    put(a, e.cause ?? null);
    put(a, e.crew_status ?? null);
    put(a, e.previous_crew_status ?? null);
    a.endRow();
  }
  a.closeSync();
  return rows;
}

/** Evaluates every scope and every source's freshness; stores the new outage states and appends the events. */
export async function evaluateCycle(db: Db, observations: Observation[], ctx: CycleContext): Promise<EventRow[]> {
  const now = ctx.now;
  const open = await openOutages(db);
  const drafts: EventDraft[] = [];
  const changed: OutageState[] = [];
  const closed: OutageState[] = [];
  for (const o of observations) {
    const k = `${o.scope}|${o.key}`;
    const prev = open.get(k) ?? null;
    const { next, events } = step(prev, o, now, () =>
      createHash('sha256').update(`${k}|${now.toISOString()}`).digest('hex').slice(0, 16),
    );
    drafts.push(...events);
    if (next) {
      if (!prev || next.crew_status !== prev.crew_status || OUTAGE_COLUMNS.some((c) => next[c] !== prev[c]))
        changed.push(next);
    } else if (prev) closed.push(prev);
  }
  // Feed freshness transitions.
  const known = new Map(
    (await db.all<{ source_id: string; freshness: 'fresh' | 'stale' }>('SELECT * FROM source_freshness')).map((r) => [
      r.source_id,
      r.freshness,
    ]),
  );
  const fresh: Array<[string, string]> = [];
  for (const s of ctx.sources) {
    const st = ctx.statuses.get(s.id);
    if (!st?.last_success_at) continue;
    const f = freshness(s, st, now);
    const ev = freshnessEvent(known.get(s.id) ?? null, f, {
      scope: 'utility',
      key: s.utility,
      fips: null,
      state: s.states.join(';'),
      utility: s.utility,
      area: null,
      source_id: s.id,
      customers_out: st.customers_out ?? 0,
      customers: st.customers_served ?? s.customers,
      pct_out: null,
      etr: null,
    });
    if (ev) drafts.push({ ...ev, customers_out: null });
    if (known.get(s.id) !== f) fresh.push([s.id, f]);
  }
  const events = await appendEvents(db, drafts, now.toISOString());
  if (changed.length || closed.length) {
    await db.staging('outages_in', 'AS SELECT * FROM outages LIMIT 0');
    const a = await db.appender('outages_in');
    for (const s of changed) appendOutage(a, s, null);
    for (const s of closed) appendOutage(a, s, now.toISOString());
    a.closeSync();
    await db.run('INSERT OR REPLACE INTO outages SELECT * FROM outages_in');
  }
  if (fresh.length) {
    await db.staging('freshness_in', 'AS SELECT * FROM source_freshness LIMIT 0');
    const a = await db.appender('freshness_in');
    for (const [id, f] of fresh) {
      a.appendVarchar(id);
      a.appendVarchar(f);
      a.endRow();
    }
    a.closeSync();
    await db.run('INSERT OR REPLACE INTO source_freshness SELECT * FROM freshness_in');
  }
  return events;
}

export const EVENT_SELECT = `SELECT id, event_at AS "at", kind, scope, fips, state, utility, area, source_id, outage_id, customers_out, pct_out, threshold, previous, etr, previous_etr, etr_slip_min, incident_id, cause, crew_status, previous_crew_status FROM events`;
