// What a connector made of a feed, for `sources probe` and `sources parse`: the --json report and the readable table.
// The table shows upstream text (names, notices) escaped for the terminal (terminal-text.ts).
import { loadAtlas } from '../geo/counties.ts';
import { stateByFips } from '../geo/states.ts';
import type { SourceDef } from './source-def.ts';
import type { Snapshot } from './snapshot.ts';
import { terminalText } from '../terminal-text.ts';
import { cleaningNote } from './clean-snapshot.ts';

export interface StateSum {
  state: string;
  fips: string;
  name: string;
  customers_out: number;
  /** sum of the feed's county served counts; null when no county of the state has one */
  customers_served: number | null;
  counties: number;
  counties_out: number;
}

export interface SnapshotReport {
  source: Pick<SourceDef, 'id' | 'utility' | 'connector' | 'states'>;
  /** the normalised snapshot exactly as the pipeline stores it */
  snapshot: Snapshot;
  /** the snapshot's counties summed per state and nationally, as the live rollups add them */
  states: StateSum[];
  national: { customers_out: number; customers_served: number | null; counties_out: number; states_out: number };
}

const addServed = (a: number | null, b: number | null): number | null =>
  a === null && b === null ? null : (a ?? 0) + (b ?? 0);

export function snapshotReport(source: SourceDef, snapshot: Snapshot): SnapshotReport {
  const byState = new Map<string, StateSum>();
  for (const c of snapshot.counties) {
    const info = stateByFips(c.fips.slice(0, 2));
    const key = info?.code ?? c.fips.slice(0, 2);
    const s = byState.get(key) ?? {
      state: key,
      fips: c.fips.slice(0, 2),
      name: info?.name ?? '?',
      customers_out: 0,
      customers_served: null,
      counties: 0,
      counties_out: 0,
    };
    s.customers_out += c.customers_out;
    s.customers_served = addServed(s.customers_served, c.customers_served);
    s.counties += 1;
    if (c.customers_out > 0) s.counties_out += 1;
    byState.set(key, s);
  }
  const states = [...byState.values()].sort(
    (a, b) => b.customers_out - a.customers_out || a.fips.localeCompare(b.fips),
  );
  const national = {
    customers_out: states.reduce((n, s) => n + s.customers_out, 0),
    customers_served: states.reduce<number | null>((n, s) => addServed(n, s.customers_served), null),
    counties_out: states.reduce((n, s) => n + s.counties_out, 0),
    states_out: states.filter((s) => s.customers_out > 0).length,
  };
  const { id, utility, connector, states: rowStates } = source;
  return { source: { id, utility, connector, states: rowStates }, snapshot, states, national };
}

/**
 * An unmatched entry split into the name and why it was not placed. Connectors write either a bare name (no county
 * of that name in the row's states), `Name (ST)`, `Name (reason)`, or a sentence that carries its own reason.
 */
export function unmatchedReason(entry: string, states: string[]): { name: string; reason: string } {
  const noCounty = (where: string) => `no county of that name in ${where}`;
  if (/^\d+ /.test(entry)) return { name: '-', reason: entry };
  const m = /^(.*\S)\s+\(([^()]*)\)$/.exec(entry);
  if (m && /^[A-Z]{2}$/.test(m[2])) return { name: m[1], reason: noCounty(m[2]) };
  if (m) return { name: m[1], reason: m[2] };
  const at = /^(outage|incident) (.*) (at|outside) (.*)$/.exec(entry);
  if (at)
    return {
      name: `${at[1]} ${at[2]}`,
      reason: at[3] === 'at' ? `its point ${at[4]} is in no county` : `outside ${at[4]}`,
    };
  return { name: entry, reason: noCounty(states.join(';')) };
}

const n = (v: number | null): string => (v === null ? '-' : v.toLocaleString('en-US'));

/** Columns padded to their widest cell (escaped first, so the padding fits what is shown); numbers right-aligned. */
function table(head: string[], raw: string[][], numeric: boolean[]): string[] {
  const rows = raw.map((r) => r.map(terminalText));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

export function formatSnapshotTable(report: SnapshotReport): string {
  const { snapshot: s, national } = report;
  const atlas = loadAtlas();
  const out: string[] = [
    `${s.utility} (${report.source.connector}, ${report.source.id}) · basis ${s.basis} · unit ${s.unit} · states ${report.source.states.join(';')}`,
    `customers_out ${n(national.customers_out)} in ${national.counties_out} counties (feed headline ${n(s.customers_out)}) · customers_served ${n(s.customers_served)} · ${s.counties.length} counties, ${s.areas.length} areas, ${s.incidents.length} incidents`,
    '',
  ];
  const counties = [...s.counties].sort((a, b) => b.customers_out - a.customers_out || a.fips.localeCompare(b.fips));
  const pct = (out: number, served: number | null) =>
    served && served >= out ? `${((100 * out) / served).toFixed(2)} %` : '-';
  if (counties.length) {
    out.push(
      ...table(
        ['fips', 'county', 'state', 'customers_out', 'customers_served', 'pct_out'],
        counties.map((c) => {
          const county = atlas.byFips.get(c.fips);
          return [
            c.fips,
            county?.name ?? '(not a county in the atlas)',
            county?.state ?? '?',
            n(c.customers_out),
            n(c.customers_served),
            pct(c.customers_out, c.customers_served),
          ];
        }),
        [false, false, false, true, true, true],
      ),
      '',
    );
  } else out.push('no counties', '');
  const stateRows = report.states.map((t) => [
    t.state,
    t.name,
    n(t.customers_out),
    n(t.customers_served),
    `${t.counties_out} / ${t.counties}`,
  ]);
  stateRows.push([
    'all',
    '',
    n(national.customers_out),
    n(national.customers_served),
    `${national.counties_out} / ${s.counties.length}`,
  ]);
  out.push(
    ...table(['state', 'name', 'customers_out', 'customers_served', 'counties out'], stateRows, [
      false,
      false,
      true,
      true,
      true,
    ]),
    '',
  );
  if (s.unmatched.length) {
    out.push(`unmatched (${s.unmatched.length}):`);
    const rows = s.unmatched.map((u) => unmatchedReason(u, report.source.states)).map((u) => [u.name, u.reason]);
    out.push(...table(['name', 'reason'], rows, [false, false]).map((l) => `  ${l}`), '');
  } else out.push('unmatched: none', '');
  if (s.unreadable.length) {
    out.push(`unreadable_records (${s.unreadable.length}): left out of every count, never read as 0`);
    out.push(...s.unreadable.slice(0, 20).map((u) => `  ${u}`));
    if (s.unreadable.length > 20) out.push(`  … and ${s.unreadable.length - 20} more`);
    out.push('');
  } else out.push('unreadable_records: none', '');
  out.push(`notice: ${s.notice ?? 'none'}`);
  if (s.text_cleaned) out.push(cleaningNote(s.text_cleaned));
  return `${out.map(terminalText).join('\n')}\n`;
}
