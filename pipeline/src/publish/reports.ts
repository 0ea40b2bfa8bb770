// Publishes the annual report tables (history/reports.ts) as prebuilt JSON and CSV files, and their decade charts,
// into the history tree. County reports are not prebuilt: each county's tables go into one internal file, and the
// function layer builds the documents with the same reportDoc (also for a county without EAGLE-I rows that year, and
// for charts not rendered yet).
import { endpoint, REPORT_TABLES, type Endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { dataNotice, CITATION } from '../contract/notice.ts';
import { findState } from '../geo/states.ts';
import { computeReports, groupBy, type Reports, type Row } from '../history/reports.ts';
import type { CountyTables } from '../history/report-tables/county.ts';
import { CAUSES } from '../history/causes.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import type { Db } from '../state/db.ts';
import { putCsv } from './formats.ts';
import { EVENTS_TOP, REPORT_COLUMNS } from '../contract/report-columns.ts';
import { FsTreeWriter, type PublishStats, type TreeWriter } from './tree-writer.ts';
import { renderChart, type ChartSpec } from './charts.ts';
import { historyCredit } from './chart-specs.ts';
import { historyMarks, markHistoryPublished } from '../history/version.ts';
import { historySimulated, SIMULATED_CREDIT } from '../history/provenance.ts';
import { archivedIncidentFiles } from './archive.ts';

export const REPORT_RULES = {
  episodes:
    'County outage episodes from the EAGLE-I 15-minute series (see /api/v1/counties/{fips}/history episode_rule), counted in the year and month they started.',
  peak_out: "Largest simultaneous customers out: the sum over the area's counties at one 15-minute time.",
  hours_per_customer:
    'customer_hours ÷ customers (EAGLE-I MCC where imported, else the shipped model): average hours without power per customer.',
  coverage:
    'observed: the county has EAGLE-I rows that year; zero: no rows, but its state was covered (coverage_history says so, or without it the state has rows); not_covered: values are null.',
  disturbances:
    'DOE OE-417 events whose Area Affected names the state (a multi-state event counts in each state); national counts each event once. Times are local as reported.',
  causes: `OE-417 Event Type (then Alert Criteria) mapped to a category, first match wins: ${CAUSES.map(([c]) => c).join(', ')}, else other (unknown when blank).`,
  utilities:
    "EIA-861 Service_Territory (county names joined to FIPS) of the latest EIA year at or before the report year; SAIDI/SAIFI (minutes / interruptions per customer) from Reliability, IEEE 1366 when reported, else the utility's other standard; customers from Sales_Ult_Cust (all parts but energy-only).",
  events: `Year and state tables: the ${EVENTS_TOP.toLocaleString('en-US')} largest episodes by customer-hours; county tables: every episode.`,
  yoy_pct: 'Change of customer_hours from the previous year, percent; null when either year is not loaded.',
  etr: "The ETR record, per source and UTC month of an incident's first sighting, from the live incident history (each incident's first and last sighting in its feed and every ETR it was given): incidents; with_etr and etr_coverage_pct (the share given an ETR at all, what the rest stands on); of the incidents with an ETR that have left their feed (etr_finished): the share last seen at or before the first ETR given, the median and 90th percentile of the slip (last ETR − first ETR, minutes), and the share whose ETR changed more than twice after the first. Null where nothing is counted.",
};

export interface ReportContext {
  simulated: boolean;
  sources: { eaglei_years: number[]; oe417_years: number[]; eia861_years: number[] };
}

export type ReportScope = { year?: number; state?: string; fips?: string; name?: string };

/** Internal (never mirrored or routed): a county's report tables of every year it has EAGLE-I rows. */
export const countyReportsFile = (fips: string) => `api/v1/reports/_counties/${fips}.json`;

/**
 * What a county's internal file holds: the tables by year (`2024`), less what repeats. `years` lists every report
 * year, so it is one table for all the county's years: held once as `years_table` when it is; `utilities` is the
 * summary's list: left out when it is that list. Halves the bytes serialised at publish and parsed per request.
 */
export interface CountyReports {
  simulated: boolean;
  years_table?: Row[];
  years: Record<string, Pick<CountyTables, 'summary'> & Partial<CountyTables>>;
}

/**
 * Two `years` tables are the same when every documented column of every row is (their rows carry exactly those
 * columns, and only numbers, strings, booleans and null: reports.test.ts checks it). Named columns, not `for…in`:
 * 4× faster on these rows, which matters over 30,000 county-years.
 */
const YEARS_COLUMNS = REPORT_COLUMNS.county.years;
function sameYears(a: Row[], b: Row[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) for (const k of YEARS_COLUMNS) if (a[i][k] !== b[i][k]) return false;
  return true;
}

export function packCountyReports(simulated: boolean, byYear: Array<[string, CountyTables]>): CountyReports {
  const first = byYear[0][1].years;
  const shared = byYear.every(([, t]) => sameYears(t.years, first));
  const years: CountyReports['years'] = {};
  for (const [y, t] of byYear) {
    const packed: CountyReports['years'][string] = {
      summary: t.summary,
      months: t.months,
      events: t.events,
      causes: t.causes,
    };
    if (!shared) packed.years = t.years;
    if (t.utilities !== t.summary.utilities) packed.utilities = t.utilities;
    years[y] = packed;
  }
  return shared ? { simulated, years_table: first, years } : { simulated, years };
}

/** One table of a county-year from its packed file (null when the county has no rows that year). */
export function countyTableOf(
  doc: CountyReports,
  year: string,
  table: string,
): { summary: Record<string, unknown> } | { rows: Row[] } | null {
  const t = doc.years[year];
  if (!t) return null;
  if (table === 'summary') return { summary: t.summary };
  if (table === 'years') return { rows: t.years ?? doc.years_table! };
  if (table === 'utilities') return { rows: t.utilities ?? (t.summary.utilities as Row[]) };
  return { rows: t[table as 'months' | 'events' | 'causes']! };
}

/**
 * putJson's bytes, serialised once: the body is the change basis with generated_at put first (the report tables are
 * tens of megabytes; putJson serialises each twice).
 */
function putJsonOnce(w: TreeWriter, rel: string, data: Record<string, unknown>): void {
  const json = JSON.stringify(data);
  w.put(rel, (g) => Buffer.from(`{"data":{"generated_at":${JSON.stringify(g)},${json.slice(1)}}`), Buffer.from(json));
}

export const SOURCE_CREDIT = 'EAGLE-I (ORNL, CC BY 4.0); DOE OE-417 and EIA-861 (US government, public domain)';

/**
 * A report table document. National, year and state documents carry the provenance block (sources, credit,
 * citation: simulated history is credited to no one); the many county documents carry only `simulated` (the
 * X-Data-Notice header says the rest).
 */
export function reportDoc(
  ctx: ReportContext,
  scope: ReportScope,
  table: string,
  tables: readonly string[],
  loaded: boolean | null,
  body: { rows: Row[] } | { summary: Record<string, unknown> },
) {
  const provenance = scope.fips
    ? {}
    : {
        notice: dataNotice(ctx.simulated),
        sources: ctx.sources,
        source_credit: ctx.simulated ? SIMULATED_CREDIT : SOURCE_CREDIT,
        citation: CITATION,
      };
  return { ...scope, table, tables, loaded, simulated: ctx.simulated, ...provenance, ...body };
}

const lower = (code: string) => code.toLowerCase();

function putTable(
  w: TreeWriter,
  e: Endpoint,
  params: Record<string, string>,
  table: string,
  columns: readonly string[],
  doc: Record<string, unknown>,
): void {
  putJsonOnce(w, fileFor(e, params, 'json', e.tables ? table : undefined), doc);
  if (e.formats.includes('csv') && Array.isArray(doc.rows))
    putCsv(w, fileFor(e, params, 'csv', e.tables ? table : undefined), columns, () =>
      (doc.rows as Row[]).map((r) => columns.map((c) => r[c] ?? null)),
    );
}

/** The years a chart's bars are (only loaded ones, not the window they were picked from): `, 2017–2026 (8 loaded)`. */
function yearSpan(years: number[]): string {
  if (years.length === 0) return '';
  const [first, last] = [Math.min(...years), Math.max(...years)];
  const gaps = years.length < last - first + 1 ? ` (${years.length} loaded)` : '';
  return first === last ? `, ${first}` : `, ${first}–${last}${gaps}`;
}

/** What a decade chart of an area shows: customer-hours by year for the ten years ending at `year`. */
export function decadeReportSpec(title: string, rows: Row[], year: number, simulated: boolean): ChartSpec {
  const shown = rows.filter((r) => (r.year as number) <= year && (r.year as number) > year - 10 && r.loaded);
  const bars = shown.map((r) => ({ label: String(r.year), value: (r.customer_hours as number) ?? 0 }));
  return {
    title,
    subtitle: `Customer-hours without power by year${yearSpan(bars.map((b) => Number(b.label)))}`,
    unit: 'customer-hours',
    bars,
    source: historyCredit(shown, simulated),
    simulated,
  };
}

export const stateTitle = (code: string) => `${findState(code)?.name ?? code}`;

/** The rows of a table of /api/v1/reports/data. */
const nationalTable = (r: Reports, table: (typeof REPORT_TABLES.national)[number]): Row[] =>
  table === 'national' ? r.national : table === 'states' ? r.states : (r.etr as unknown as Row[]);

export interface HistoryPublishOptions {
  simulated: boolean;
  now: Date;
  renderCharts?: boolean;
}

export async function publishReports(
  w: TreeWriter,
  r: Reports,
  opts: HistoryPublishOptions,
): Promise<{ charts: number }> {
  const ctx: ReportContext = {
    simulated: opts.simulated,
    sources: { eaglei_years: r.loaded, oe417_years: r.oe417, eia861_years: r.eia861 },
  };
  const E = {
    data: endpoint('reports.data'),
    causes: endpoint('reports.causes'),
    trend: endpoint('reports.trend'),
    year: endpoint('reports.year'),
    state: endpoint('reports.state'),
  };
  for (const table of REPORT_TABLES.national) {
    putTable(
      w,
      E.data,
      {},
      table,
      REPORT_COLUMNS.national[table],
      reportDoc(ctx, {}, table, REPORT_TABLES.national, null, { rows: nationalTable(r, table) }),
    );
  }
  putTable(w, E.causes, {}, 'causes', REPORT_COLUMNS.causes, {
    ...reportDoc(ctx, {}, 'causes', ['causes'], null, { rows: r.causes }),
    rules: { causes: REPORT_RULES.causes },
  });
  putTable(
    w,
    E.trend,
    {},
    'trend',
    REPORT_COLUMNS.trend,
    reportDoc(ctx, {}, 'trend', ['trend'], null, { rows: r.trend }),
  );
  for (const year of r.range) {
    const y = r.byYear.get(year)!;
    const loaded = r.loaded.includes(year);
    for (const table of REPORT_TABLES.year) {
      putTable(
        w,
        E.year,
        { year: String(year) },
        table,
        REPORT_COLUMNS.year[table],
        reportDoc(ctx, { year }, table, REPORT_TABLES.year, loaded, { rows: y[table] }),
      );
    }
    for (const [key, s] of r.byState) {
      const [yy, code] = key.split('|');
      if (Number(yy) !== year) continue;
      for (const table of REPORT_TABLES.state) {
        putTable(
          w,
          E.state,
          { year: yy, state: lower(code) },
          table,
          REPORT_COLUMNS.state[table],
          reportDoc(ctx, { year, state: code }, table, REPORT_TABLES.state, loaded, { rows: s[table] }),
        );
      }
    }
  }
  // County reports: one internal file per county with the tables of every year it has rows; the function layer
  // builds each report document from it (six documents × years × counties were 97 % of the tree's files).
  let n = 0;
  for (const [fips, keys] of groupBy(r.countyYears, (k) => k.slice(5))) {
    if (++n % 500 === 0) await w.flush(); // bounded memory: at most 500 counties' files in flight
    const byYear = keys.map((k): [string, CountyTables] => [
      k.slice(0, 4),
      r.countyTables(Number(k.slice(0, 4)), fips)!,
    ]);
    putJsonOnce(w, countyReportsFile(fips), { ...packCountyReports(opts.simulated, byYear) });
  }
  // Decade charts: re-rendered only when what they show changed; rendering needs `build --charts` (or happens on
  // request in the function layer), a plain publish carries the existing ones over.
  let charts = 0;
  const chartE = { year: endpoint('reports.year.chart'), state: endpoint('reports.state.chart') };
  const stateRows = groupBy(r.states, (s) => s.state as string);
  // Prebuilt from the first loaded year on, for states with data; the others (empty charts) are drawn on request.
  const wanted: Array<[string, ChartSpec]> = [];
  for (const year of r.range.filter((y) => r.loaded.length && y >= r.loaded[0])) {
    wanted.push([
      fileFor(chartE.year, { year: String(year) }, 'png'),
      decadeReportSpec('United States', r.national, year, opts.simulated),
    ]);
    for (const [code, rows] of stateRows) {
      if (rows.some((x) => (x.episodes as number) > 0))
        wanted.push([
          fileFor(chartE.state, { year: String(year), state: lower(code) }, 'png'),
          decadeReportSpec(stateTitle(code), rows, year, opts.simulated),
        ]);
    }
  }
  for (const [rel, spec] of wanted) {
    const basis = Buffer.from(JSON.stringify(spec));
    if (w.same(rel, basis) && w.keep(rel)) continue;
    if (!opts.renderCharts) continue;
    const png = await renderChart(spec, opts.now.toISOString());
    w.put(rel, () => png, basis);
    charts += 1;
  }
  return { charts };
}

/** Computes the report tables and publishes the history tree (`outage import`, `outage build`, `npm start`). */
export async function publishHistoryTree(
  db: Db,
  outDir: string,
  opts: { now: Date; renderCharts?: boolean; writer?: TreeWriter },
): Promise<PublishStats & { charts: number; ms: number }> {
  const t0 = Date.now();
  const simulated = await historySimulated(db);
  const model = await countyModel(db, loadCountyModel());
  const reports = await computeReports(db, model, opts.now, archivedIncidentFiles(outDir));
  await db.releaseMemory(); // the tables are computed: what DuckDB cached for them is not needed to write them
  const w = opts.writer ?? new FsTreeWriter(outDir, opts.now, 'history');
  const { charts } = await publishReports(w, reports, { simulated, now: opts.now, renderCharts: opts.renderCharts });
  const stats = await w.commit({ simulated, notice: dataNotice(simulated) });
  return { ...stats, charts, ms: Date.now() - t0 };
}

/**
 * Publishes the history tree when an import changed history since it was last published (`force`: always, as
 * `outage build` does). Returns null when nothing needed publishing.
 */
export async function publishHistoryIfChanged(
  db: Db,
  outDir: string,
  opts: { now: Date; force?: boolean; renderCharts?: boolean; writer?: TreeWriter },
): Promise<(PublishStats & { charts: number; ms: number }) | null> {
  const marks = await historyMarks(db);
  if (!opts.force && (!marks.version || marks.version === marks.published)) return null;
  const stats = await publishHistoryTree(db, outDir, opts);
  await markHistoryPublished(db, marks.version);
  return stats;
}
