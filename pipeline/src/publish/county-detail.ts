// Builds the county detail documents (areas, incidents, alerts) from the current observations, and publishes them
// for every county with an outage. Other counties get a valid empty answer from the function layer.
import { createHash } from 'node:crypto';
import type { Db } from '../state/db.ts';
import type { SourceDef } from '../sources/registry.ts';
import type { Incident } from '../sources/snapshot.ts';
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

const listOf = (fips: string[]) => `[${fips.join(',')}]`;

export interface CountyDetail {
  areas: AreaRecord[];
  incidents: IncidentRecord[];
}

type AreaRow = {
  source_id: string;
  fips: string | null;
  name: string;
  path: string;
  customers_out: number;
  out_display: string;
  out_lower: number;
  out_upper: number | null;
  masked: boolean;
  customers_served: number | null;
  etr: string | null;
  bbox: string | null;
};

function areaRecord(a: AreaRow & { fips: string }, src: SourceDef): AreaRecord {
  return {
    area_id: createHash('sha256').update(`${a.source_id}|${a.path}`).digest('hex').slice(0, 12),
    name: a.name,
    path: JSON.parse(a.path),
    utility: src.utility,
    source_id: a.source_id,
    fips: a.fips,
    customers_out: a.customers_out,
    out_display: a.out_display,
    out_lower: a.out_lower,
    out_upper: a.out_upper,
    masked: a.masked,
    customers_served: a.customers_served,
    pct_out: a.masked ? null : pctOut(a.customers_out, a.customers_served),
    etr: a.etr,
    active: a.customers_out > 0,
    bbox: a.bbox ? JSON.parse(a.bbox) : null,
  };
}

/** Areas and incidents of the counties with customers out (the only ones with prebuilt detail files). */
export async function loadDetails(
  db: Db,
  sources: SourceDef[],
  countiesOut: string[],
): Promise<Map<string, CountyDetail>> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const out = new Map<string, CountyDetail>();
  const of = (fips: string) => out.get(fips) ?? out.set(fips, { areas: [], incidents: [] }).get(fips)!;
  const areas = await db.all<AreaRow>(
    `SELECT a.* FROM obs_area a JOIN (SELECT unnest(?::VARCHAR[]) AS fips) o USING (fips) ORDER BY a.fips, a.source_id, a.path`,
    [listOf(countiesOut)],
  );
  for (const a of areas) {
    const src = byId.get(a.source_id);
    if (src && a.fips) of(a.fips).areas.push(areaRecord({ ...a, fips: a.fips }, src));
  }
  const incidents = await db.all<Incident & { source_id: string }>(
    `SELECT i.* FROM obs_incident i JOIN (SELECT unnest(?::VARCHAR[]) AS fips) o USING (fips) ORDER BY i.fips, i.source_id, i.id`,
    [listOf(countiesOut)],
  );
  for (const i of incidents) {
    const src = byId.get(i.source_id);
    if (!src || !i.fips) continue;
    of(i.fips).incidents.push({
      incident_id: i.id,
      utility: src.utility,
      source_id: i.source_id,
      fips: i.fips,
      customers_out: i.customers_out,
      etr: i.etr,
      crew_status: i.crew_status,
      cause: i.cause,
      started_at: i.started_at,
      lat: i.lat,
      lon: i.lon,
      city: i.city,
    });
  }
  return out;
}

/**
 * The areas the feeds list in counties with nothing out, per state and county: `active=false` answers and sync
 * pushes for a quiet county read them (see contract/county-answers.ts) instead of a prebuilt file per county.
 */
export async function publishQuietAreas(
  w: TreeWriter,
  db: Db,
  sources: SourceDef[],
  counties: CountyLive[],
): Promise<void> {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const quiet = new Map(counties.filter((c) => c.customers_out <= 0).map((c) => [c.fips, c.state]));
  const byState = new Map<string, Record<string, AreaRecord[]>>();
  for (const a of await db.all<AreaRow>(
    'SELECT * FROM obs_area WHERE fips IS NOT NULL ORDER BY fips, source_id, path',
  )) {
    const state = a.fips && quiet.get(a.fips);
    const src = byId.get(a.source_id);
    if (!state || !src) continue;
    const m = byState.get(state) ?? byState.set(state, {}).get(state)!;
    (m[a.fips!] ??= []).push(areaRecord({ ...a, fips: a.fips! }, src));
  }
  for (const st of new Set(counties.map((c) => c.state)))
    putJson(w, quietAreasFile(st), { areas: byState.get(st) ?? {} });
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

export function publishCountyDetails(
  w: TreeWriter,
  counties: CountyLive[],
  details: Map<string, CountyDetail>,
  sources: SourceDef[],
  statuses: Map<string, SourceStatus>,
  baseUrl: string,
  notice: string,
): void {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const [areasE, incidentsE, alertsE] = [
    endpoint('live.county.areas'),
    endpoint('live.county.incidents'),
    endpoint('live.county.alerts'),
  ];
  const meta = { notice: `${notice} ${DETAIL_NOTICE}`, filters: {} };
  /** Writes a JSON document; its CSV and GeoJSON siblings are rendered only when the JSON changed. */
  const publish = (
    json: string,
    data: Record<string, unknown>,
    m: Record<string, unknown>,
    siblings: Array<[string, () => void]>,
  ) => {
    const basis = envelopeBasis(data, m);
    if (w.same(json, basis) && [json, ...siblings.map(([f]) => f)].every((f) => w.keep(f))) return;
    putEnvelope(w, json, data, m, basis);
    for (const [, render] of siblings) render();
  };
  for (const c of counties) {
    if (c.customers_out <= 0) continue;
    const d = details.get(c.fips) ?? { areas: [], incidents: [] };
    const p = { fips: c.fips };
    const geo = (e: typeof areasE, title: string) => (g: string) => ({
      generated: g,
      url: `${baseUrl}${urlFor(e, p, { format: 'geojson' })}`,
      title,
      notice: meta.notice,
    });
    publish(
      fileFor(alertsE, p, 'json'),
      alertsDoc(c.fips, alertEntries(c, d, byId, statuses)),
      { ...meta, filters: ALERT_DEFAULTS },
      [],
    );
    publish(fileFor(areasE, p, 'json'), { fips: c.fips, count: d.areas.length, areas: d.areas }, meta, [
      [fileFor(areasE, p, 'csv'), () => putText(w, fileFor(areasE, p, 'csv'), toCsv(d.areas, AREA_COLUMNS))],
      [
        fileFor(areasE, p, 'geojson'),
        () =>
          putRenderedJson(w, fileFor(areasE, p, 'geojson'), (g) =>
            areasGeoJson(d.areas, geo(areasE, `Areas out in ${c.name}, ${c.state}`)(g)),
          ),
      ],
    ]);
    publish(fileFor(incidentsE, p, 'json'), { fips: c.fips, count: d.incidents.length, incidents: d.incidents }, meta, [
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
    ]);
  }
}
