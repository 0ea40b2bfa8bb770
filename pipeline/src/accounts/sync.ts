// Scheduled data sync pushes (spec: Delivery channels — county snapshot, areas, incidents, alert status, state
// summary). A rule with `sync_interval_min` gets, on every multiple of that interval since 00:00 UTC, one signed
// `sync.snapshot` webhook per webhook channel, built from the published files for the rule's scope:
//  - county: the county's live document, its areas, incidents and alert evaluation, and its state's summary;
//  - municipality: the same, areas and alerts narrowed to the municipality;
//  - state: the state summary and the live documents of its counties with customers out (areas/incidents of each);
//  - utility: the state summaries of the utility's states and its sources.
// Bodies over MAX_BODY_BYTES are cut (lists shortened) and say `truncated: true`.
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import type { Sql } from './sql.ts';
import { webhookBody, MAX_BODY_BYTES } from './channels.ts';
import { newId } from './secrets.ts';
import { scopeOf, type Rule } from './rules.ts';

import { ALERT_DEFAULTS } from '../contract/county-detail.ts';
import { countyAlerts, countyAreas, type DocReader } from '../contract/county-answers.ts';
export type { DocReader };

const live = (id: string, fips: string) => fileFor(endpoint(id), { fips }, 'json');
type Row = Record<string, unknown>;

export function syncData(
  r: Pick<Rule, 'scope_kind' | 'scope_value' | 'scope_state'>,
  read: DocReader,
): Record<string, unknown> {
  const summary = read(fileFor(endpoint('live.summary'), {}, 'json'));
  const states = (summary?.states as Row[] | undefined) ?? [];
  const countyParts = (fips: string, area?: string) => {
    const areas = (countyAreas(read, fips) ?? []).filter(
      (a) => !area || String(a.name).toLowerCase() === area.toLowerCase(),
    );
    const alerts = countyAlerts(read, fips, ALERT_DEFAULTS);
    return {
      county: read(live('live.county', fips)),
      areas,
      incidents: area ? [] : ((read(live('live.county.incidents', fips))?.incidents as Row[] | undefined) ?? []),
      alerts: alerts
        ? {
            county: alerts.county,
            utilities: alerts.utilities,
            municipalities: alerts.municipalities.filter((m) => !area || m.name.toLowerCase() === area.toLowerCase()),
          }
        : null,
    };
  };
  const out: Record<string, unknown> = {
    scope: scopeOf(r),
    generated_at: summary?.generated_at ?? null,
    counties: [],
    areas: [],
    incidents: [],
    alerts: [],
    states: [],
    truncated: false,
  };
  if (r.scope_kind === 'county' || r.scope_kind === 'municipality') {
    const fips = r.scope_kind === 'county' ? r.scope_value : r.scope_state!;
    const p = countyParts(fips, r.scope_kind === 'municipality' ? r.scope_value : undefined);
    Object.assign(out, {
      counties: p.county ? [p.county] : [],
      areas: p.areas,
      incidents: p.incidents,
      alerts: p.alerts ? [p.alerts] : [],
      states: states.filter((s) => s.state === (p.county?.state ?? null)),
    });
  } else if (r.scope_kind === 'state') {
    const map = read(fileFor(endpoint('live.map'), {}, 'json')) ?? {};
    const fipsOut = Object.keys(map).filter((k) => /^\d{5}$/.test(k));
    const parts = fipsOut.map((f) => countyParts(f)).filter((p) => p.county?.state === r.scope_value);
    Object.assign(out, {
      counties: parts.map((p) => p.county),
      areas: parts.flatMap((p) => p.areas),
      incidents: parts.flatMap((p) => p.incidents),
      alerts: parts.map((p) => p.alerts).filter(Boolean),
      states: states.filter((s) => s.state === r.scope_value),
    });
  } else {
    const sources = ((read(fileFor(endpoint('live.sources'), {}, 'json'))?.sources as Row[] | undefined) ?? []).filter(
      (s) => s.utility === r.scope_value,
    );
    const codes = new Set(sources.flatMap((s) => (s.states as string[] | undefined) ?? []));
    Object.assign(out, { sources, states: states.filter((s) => codes.has(s.state as string)) });
  }
  return out;
}

/** Shortens the longest lists until the body fits. */
function fitToCap(data: Record<string, unknown>, render: (d: Record<string, unknown>) => string): string {
  let body = render(data);
  while (Buffer.byteLength(body) > MAX_BODY_BYTES) {
    const longest = ['incidents', 'areas', 'alerts', 'counties']
      .map((k) => [k, (data[k] as unknown[]).length] as const)
      .sort((a, b) => b[1] - a[1])[0];
    if (longest[1] === 0) break;
    data = {
      ...data,
      [longest[0]]: (data[longest[0]] as unknown[]).slice(0, Math.floor(longest[1] / 2)),
      truncated: true,
    };
    body = render(data);
  }
  return body;
}

/** Enqueues the sync pushes that are due and schedules the next ones. Returns the deliveries created. */
export async function enqueueSyncPushes(
  sql: Sql,
  now: Date,
  read: DocReader,
  insert: (rows: unknown[][]) => Promise<number>,
): Promise<number> {
  const due = await sql.query<Rule & { sync_interval_min: number }>(
    'SELECT * FROM rules WHERE sync_interval_min IS NOT NULL AND next_sync_at <= $1',
    [now],
  );
  let created = 0;
  for (const r of due) {
    const step = r.sync_interval_min * 60_000;
    const slot = new Date(Math.floor(now.getTime() / step) * step);
    const channels = await sql.query<{ id: string }>(
      "SELECT id FROM channels WHERE rule_id = $1 AND kind = 'webhook'",
      [r.id],
    );
    const data = syncData(r, read);
    const rows = channels.map((c) => {
      const id = newId('dlv');
      const body = fitToCap(data, (d) =>
        webhookBody(id, 'sync.snapshot', now.toISOString(), { id: r.id, name: r.name }, d),
      );
      return [id, c.id, 'sync', null, `sync:${r.id}:${slot.toISOString()}`, body, 'pending', now, now];
    });
    created += await insert(rows);
    await sql.query('UPDATE rules SET next_sync_at = $2 WHERE id = $1', [r.id, new Date(slot.getTime() + step)]);
  }
  return created;
}
