// Builds the county detail documents (areas, incidents, alerts) from the current observations, and publishes them
// for every county with an outage. Other counties get a valid empty answer from the function layer.
import type { Db } from '../state/db.ts';
import { loadAreas, loadIncidents } from './detail-load.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { CountyLive } from '../state/rollup.ts';
import type { SourceStatus } from '../state/status.ts';
import { utilityPct } from '../sources/scheduler.ts';
import { pctOut } from '../state/rules.ts';
import {
  ALERT_DEFAULTS,
  AREA_COLUMNS,
  DETAIL_NOTICE,
  INCIDENT_COLUMNS,
  areasGeoJson,
  evaluate,
  incidentsGeoJson,
  majorLine,
  toCsv,
  type AlertEntry,
  type AreaRecord,
  type IncidentRecord,
} from '../contract/county-detail.ts';
import { endpoint } from '../contract/catalogue.ts';
import { fileFor, urlFor } from '../contract/urls.ts';
import type { TreeWriter } from './tree-writer.ts';
import { envelopeBasis, putEnvelope, putJson, putRenderedJson, putText } from './formats.ts';
import { quietAreasFile } from '../contract/county-answers.ts';
import type { DetailCache } from './detail-cache.ts';

export interface CountyDetail {
  areas: AreaRecord[];
  incidents: IncidentRecord[];
}

/**
 * The areas the feeds list in counties with nothing out, per state and county: `active=false` answers and sync
 * pushes for a quiet county read them (see contract/county-answers.ts) instead of a prebuilt file per county. Only
 * the states whose quiet counties changed are read and rewritten.
 */
async function publishQuietAreas(w: TreeWriter, ctx: DetailContext): Promise<void> {
  const quietBy = new Map<string, string[]>();
  for (const c of ctx.counties) {
    const list = quietBy.get(c.state) ?? quietBy.set(c.state, []).get(c.state)!;
    if (c.customers_out <= 0) list.push(c.fips);
  }
  const stale = [...quietBy].filter(([st, fips]) => ctx.cache.quietStale(st, fips) || !w.keep(quietAreasFile(st)));
  const areas = await loadAreas(
    ctx.db,
    ctx.sources,
    stale.flatMap(([, fips]) => fips),
  );
  for (const [st, fips] of stale) {
    const byFips: Record<string, AreaRecord[]> = {};
    for (const f of fips) if (areas.has(f)) byFips[f] = areas.get(f)!;
    putJson(w, quietAreasFile(st), { areas: byFips });
    ctx.cache.quietWrote(st, fips);
  }
}

/** Alert inputs for one county: the county, each utility serving it, each municipality. */
export function alertEntries(
  c: CountyLive,
  detail: CountyDetail | undefined,
  sources: Map<string, SourceDef>,
  statuses: Map<string, SourceStatus>,
): Array<Omit<AlertEntry, 'meets_min_customers' | 'meets_min_pct' | 'alert'>> {
  const list: Array<Omit<AlertEntry, 'meets_min_customers' | 'meets_min_pct' | 'alert'>> = [
    {
      scope: 'county',
      name: c.name,
      utility: null,
      customers_out: c.customers_out,
      customers: c.denominator,
      pct_out: c.pct_out,
    },
  ];
  for (const s of c.sources) {
    const src = sources.get(s.source_id);
    const uPct = src ? utilityPct(src, statuses.get(s.source_id)) : null;
    list.push({
      scope: 'utility',
      name: s.utility,
      utility: s.utility,
      customers_out: s.customers_out,
      customers: s.customers_served,
      pct_out: pctOut(s.customers_out, s.customers_served),
      major_event_line: majorLine(uPct),
      utility_pct_out: uPct,
    });
  }
  for (const a of detail?.areas ?? []) {
    list.push({
      scope: 'municipality',
      name: a.name,
      utility: a.utility,
      customers_out: a.customers_out,
      customers: a.customers_served,
      pct_out: a.pct_out,
    });
  }
  return list;
}

export function alertsDoc(fips: string, entries: ReturnType<typeof alertEntries>, t = ALERT_DEFAULTS) {
  const evaluated = entries.map((e) => evaluate(e, t));
  return {
    fips,
    thresholds: t,
    alert: evaluated.some((e) => e.alert),
    county: evaluated.find((e) => e.scope === 'county') ?? null,
    utilities: evaluated.filter((e) => e.scope === 'utility'),
    municipalities: evaluated.filter((e) => e.scope === 'municipality'),
  };
}

export interface DetailContext {
  db: Db;
  counties: CountyLive[];
  sources: SourceDef[];
  statuses: Map<string, SourceStatus>;
  baseUrl: string;
  notice: string;
  cache: DetailCache;
}

const [areasE, incidentsE, alertsE] = [
  endpoint('live.county.areas'),
  endpoint('live.county.incidents'),
  endpoint('live.county.alerts'),
];

/** The six area and incident files of a county, carried over; false when one is missing (it is then rebuilt). */
function keepDetailFiles(w: TreeWriter, fips: string): boolean {
  return [areasE, incidentsE].every((e) =>
    (['json', 'csv', 'geojson'] as const).every((f) => w.keep(fileFor(e, { fips }, f))),
  );
}

/** Counties whose areas and incidents are read and rendered at once: a storm's are never all in the heap together. */
const DETAIL_BATCH = 32;

/**
 * Areas, incidents and alerts of every county with customers out, and the quiet counties' areas. Only the counties
 * whose sources changed (DetailCache) are read and rendered, DETAIL_BATCH at a time (issue 39: a 3× storm's 284,000
 * incidents read at once took the poller past 1 GB); the alerts, which also follow the county's live figures, are
 * evaluated for every county out.
 */
export async function publishDetails(w: TreeWriter, ctx: DetailContext): Promise<void> {
  ctx.cache.begin();
  const out = ctx.counties.filter((c) => c.customers_out > 0);
  const byId = new Map(ctx.sources.map((s) => [s.id, s]));
  for (let i = 0; i < out.length; i += DETAIL_BATCH) {
    const batch = out.slice(i, i + DETAIL_BATCH);
    const stale = new Set(
      batch.filter((c) => ctx.cache.isDirty(c.fips) || !keepDetailFiles(w, c.fips)).map((c) => c.fips),
    );
    // One connection: the two reads run one after the other either way.
    const areas = await loadAreas(ctx.db, ctx.sources, [...stale]);
    const incidents = await loadIncidents(ctx.db, ctx.sources, [...stale]);
    for (const f of stale) ctx.cache.setAreas(f, areas.get(f) ?? []);
    for (const c of batch) {
      const d = { areas: ctx.cache.areasOf(c.fips) ?? [], incidents: incidents.get(c.fips) ?? [] };
      publishCountyDetail(w, c, d, { ...ctx, byId }, stale.has(c.fips));
      // A storm rewrites thousands of files: rendering must not run ahead of the disk by more than a few dozen.
      await w.drain();
    }
  }
  await publishQuietAreas(w, ctx);
}

/** Writes a JSON document; its CSV and GeoJSON siblings are rendered only when the JSON changed. */
function publishDoc(
  w: TreeWriter,
  json: string,
  data: Record<string, unknown>,
  m: Record<string, unknown>,
  siblings: Array<[string, () => void]>,
): void {
  const basis = envelopeBasis(data, m);
  if (w.same(json, basis) && [json, ...siblings.map(([f]) => f)].every((f) => w.keep(f))) return;
  putEnvelope(w, json, data, m, basis);
  for (const [, render] of siblings) render();
}

/** One county's alerts, and (when `rebuild`) its area and incident documents in JSON, CSV and GeoJSON. */
function publishCountyDetail(
  w: TreeWriter,
  c: CountyLive,
  d: CountyDetail,
  ctx: DetailContext & { byId: Map<string, SourceDef> },
  rebuild: boolean,
): void {
  const meta = { notice: `${ctx.notice} ${DETAIL_NOTICE}`, filters: {} };
  const p = { fips: c.fips };
  const geo = (e: typeof areasE, title: string) => (g: string) => ({
    generated: g,
    url: `${ctx.baseUrl}${urlFor(e, p, { format: 'geojson' })}`,
    title,
    notice: meta.notice,
  });
  const alerts = alertsDoc(c.fips, alertEntries(c, d, ctx.byId, ctx.statuses));
  publishDoc(w, fileFor(alertsE, p, 'json'), alerts, { ...meta, filters: ALERT_DEFAULTS }, []);
  if (!rebuild) return;
  publishDoc(w, fileFor(areasE, p, 'json'), { fips: c.fips, count: d.areas.length, areas: d.areas }, meta, [
    [fileFor(areasE, p, 'csv'), () => putText(w, fileFor(areasE, p, 'csv'), toCsv(d.areas, AREA_COLUMNS))],
    [
      fileFor(areasE, p, 'geojson'),
      () =>
        putRenderedJson(w, fileFor(areasE, p, 'geojson'), (g) =>
          areasGeoJson(d.areas, geo(areasE, `Areas out in ${c.name}, ${c.state}`)(g)),
        ),
    ],
  ]);
  publishDoc(
    w,
    fileFor(incidentsE, p, 'json'),
    { fips: c.fips, count: d.incidents.length, incidents: d.incidents },
    meta,
    [
      [
        fileFor(incidentsE, p, 'csv'),
        () => putText(w, fileFor(incidentsE, p, 'csv'), toCsv(d.incidents, INCIDENT_COLUMNS)),
      ],
      [
        fileFor(incidentsE, p, 'geojson'),
        () =>
          putRenderedJson(w, fileFor(incidentsE, p, 'geojson'), (g) =>
            incidentsGeoJson(d.incidents, geo(incidentsE, `Incidents in ${c.name}, ${c.state}`)(g)),
          ),
      ],
    ],
  );
}
