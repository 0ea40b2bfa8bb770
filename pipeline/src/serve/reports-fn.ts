// The report endpoints' function-layer answers: every county report (from the county's internal file, or for a county
// without EAGLE-I rows that year from its state's table), years outside the published range, and charts not rendered
// yet (drawn on request from the published tables, by the same builders the publisher uses). The path checks (year,
// state, county) are in report-path.ts.
import type { Context } from 'hono';
import { etagMatches } from './conditional.ts';
import { CACHE_CONTROL, CONTENT_TYPE, endpoint, REPORT_TABLES } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { notFound, unknownYear } from '../contract/errors.ts';
import { loadAtlas } from '../geo/counties.ts';
import {
  countyReportsFile,
  countyTableOf,
  decadeReportSpec,
  reportDoc,
  stateTitle,
  type CountyReports,
} from '../publish/reports.ts';
import { hashOf } from '../publish/tree-writer.ts';
import { REPORT_COLUMNS } from '../contract/report-columns.ts';
import { REPORT_FIRST_YEAR, type Row } from '../history/reports.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import { sendChart } from './county-detail-fn.ts';

type Published<T> = T & { generated_at: string };
/** Parsed county files by object (the ETag of their bytes): a report page asks for several tables of one county. */
const parsed = new Map<string, Published<CountyReports>>();
const PARSED_MAX = 64;

function countyReports(tree: PublishedTree, fips: string): Published<CountyReports> | null {
  const rel = countyReportsFile(fips);
  const object = tree.current('history')?.files[rel]?.object;
  if (!object) return null;
  let doc = parsed.get(object);
  if (!doc) {
    const f = tree.read(rel);
    if (!f) return null;
    doc = JSON.parse(f.body.toString('utf8')).data as Published<CountyReports>;
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(object, doc);
  }
  return doc;
}

/**
 * `reports.county`: for a county with EAGLE-I rows that year, the document the publisher used to prebuild, byte for
 * byte (same reportDoc, same generated_at: its file's); any other county-year goes to reportFallback.
 */
export function countyReport(c: Context, params: Record<string, string>, table: string, tree: PublishedTree) {
  const doc = countyReports(tree, params.county);
  const body = doc && countyTableOf(doc, params.year, table);
  if (!doc || !body) return reportFallback(c, 'reports.county', params, table, tree);
  const county = loadAtlas().byFips.get(params.county)!;
  const scope = { year: Number(params.year), state: county.state, fips: county.fips, name: county.name };
  // County documents carry no provenance block (reportDoc leaves the sources out for a county scope).
  const ctx = { simulated: doc.simulated, sources: { eaglei_years: [], oe417_years: [], eia861_years: [] } };
  const data = { generated_at: doc.generated_at, ...reportDoc(ctx, scope, table, REPORT_TABLES.county, true, body) };
  return sendHistoryJson(c, JSON.stringify({ data }), doc.generated_at);
}

/** A JSON answer with a prebuilt file's headers: history Cache-Control, content-hash ETag (304), Last-Modified. */
function sendHistoryJson(c: Context, body: string, generatedAt: string) {
  const etag = `"${hashOf(Buffer.from(body))}"`;
  c.header('Content-Type', CONTENT_TYPE.json);
  c.header('Cache-Control', CACHE_CONTROL.history);
  c.header('ETag', etag);
  c.header('Last-Modified', new Date(generatedAt).toUTCString());
  c.header('Vary', 'Accept-Encoding');
  if (etagMatches(c.req.header('If-None-Match'), etag)) return c.body(null, 304);
  if (c.req.method === 'HEAD') return c.body(null, 200);
  return c.body(body, 200);
}

type NationalDoc = {
  rows: Row[];
  simulated: boolean;
  sources: { eaglei_years: number[]; oe417_years: number[]; eia861_years: number[] };
};

/** A report URL whose file is missing: a year outside the published range, or a county report drawn from its state's table. */
export async function reportFallback(
  c: Context,
  id: string,
  params: Record<string, string>,
  table: string | undefined,
  tree: PublishedTree,
) {
  const national = tree.data<NationalDoc>(fileFor(endpoint('reports.data'), {}, 'json', 'national'));
  if (!national) throw notFound(c.req.path); // no history published yet
  const years = national.rows.map((r) => r.year as number);
  if (params.year !== undefined && !years.includes(Number(params.year)))
    throw unknownYear(params.year, years[0] ?? REPORT_FIRST_YEAR, years.at(-1) ?? REPORT_FIRST_YEAR);
  const year = Number(params.year);
  if (id === 'reports.year.chart')
    return sendChart(
      c,
      id,
      decadeReportSpec('United States', national.rows, year, national.simulated),
      national.generated_at,
    );
  if (id === 'reports.state.chart') {
    const states = tree.data<{ rows: Row[] }>(fileFor(endpoint('reports.data'), {}, 'json', 'states'));
    const code = params.state.toUpperCase();
    return sendChart(
      c,
      id,
      decadeReportSpec(
        stateTitle(code),
        (states?.rows ?? []).filter((r) => r.state === code),
        year,
        national.simulated,
      ),
      national.generated_at,
    );
  }
  if (id !== 'reports.county') throw notFound(c.req.path);
  // A county without EAGLE-I rows that year: its row of the state's table (coverage `zero` or `not_covered`).
  const state = tree.data<{ rows: Row[]; loaded: boolean }>(
    fileFor(endpoint('reports.state'), { year: params.year, state: params.state }, 'json', 'counties'),
  );
  const county = loadAtlas().byFips.get(params.county)!;
  const row = state?.rows.find((r) => r.fips === params.county) ?? null;
  const ctx = { simulated: national.simulated, sources: national.sources };
  const scope = { year, state: county.state, fips: county.fips, name: county.name };
  const loaded = state?.loaded ?? false;
  const note = row
    ? `No EAGLE-I rows for this county in ${year} (coverage: ${row.coverage}).`
    : `${year} is not loaded.`;
  const t = table ?? REPORT_TABLES.county[0];
  const body =
    t === 'summary'
      ? {
          summary: {
            ...(row ?? { year, fips: county.fips, name: county.name, state: county.state, loaded, coverage: null }),
            episodes_by_size: null,
            longest_episode: null,
            state_comparison: null,
            national_comparison: null,
            utilities: [],
          },
          note,
        }
      : { rows: t === 'years' ? countyYears(tree, years, params.state, county) : [], note };
  const data = {
    generated_at: national.generated_at,
    ...reportDoc(ctx, scope, t, REPORT_TABLES.county, loaded, body as { rows: Row[] }),
  };
  return sendHistoryJson(c, JSON.stringify({ data }), national.generated_at);
}

/** The county's row of every year's state table (the same columns as a prebuilt `years` table). */
function countyYears(
  tree: PublishedTree,
  years: number[],
  state: string,
  county: { fips: string; name: string; state: string },
): Row[] {
  const rows = years.map((y): Row => {
    const table = tree.data<{ rows: Row[] }>(
      fileFor(endpoint('reports.state'), { year: String(y), state }, 'json', 'counties'),
    );
    const r = table?.rows.find((x) => x.fips === county.fips);
    return Object.fromEntries(
      REPORT_COLUMNS.county.years.map((c) => [
        c,
        r?.[c] ??
          ({ year: y, fips: county.fips, name: county.name, state: county.state, loaded: false } as Row)[c] ??
          null,
      ]),
    );
  });
  return rows.map((r, i) => {
    const [a, b] = [r.customer_hours as number | null, (rows[i - 1]?.customer_hours ?? null) as number | null];
    return { ...r, yoy_pct: a === null || b === null || b === 0 ? null : Math.round(((a - b) / b) * 10_000) / 100 };
  });
}
