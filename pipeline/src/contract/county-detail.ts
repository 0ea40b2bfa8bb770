// The county detail resources (areas, incidents, alerts): records, filters, threshold evaluation and the CSV and
// GeoJSON renderings. Shared by the publisher (unfiltered, prebuilt) and the function layer (filtered).
import { ApiError, badParam } from './errors.ts';
import { MAJOR_EVENT_PCT } from '../state/rules.ts';
import type { Incident } from '../sources/snapshot.ts';
import { csvText } from './csv.ts';

export interface AreaRecord {
  area_id: string;
  name: string;
  path: string[];
  utility: string;
  source_id: string;
  fips: string;
  customers_out: number;
  out_display: string;
  out_lower: number;
  out_upper: number | null;
  masked: boolean;
  customers_served: number | null;
  pct_out: number | null;
  etr: string | null;
  active: boolean;
  bbox: [number, number, number, number] | null;
}

/** A connector's incident as published: with its utility and source, in a county. */
export type IncidentRecord = Omit<Incident, 'id' | 'fips'> & {
  incident_id: string;
  utility: string;
  source_id: string;
  fips: string;
  /** when this service first saw the incident listed (null before its history was kept) */
  first_seen_at?: string | null;
  /** how many times its ETR changed: the ETRs it was given, less the first */
  etr_changes?: number;
  /** every ETR it was given, with the poll that first showed it, oldest first */
  etr_history?: Array<{ etr: string; seen_at: string }>;
};

export interface AlertEntry {
  scope: 'county' | 'utility' | 'municipality';
  name: string;
  utility: string | null;
  customers_out: number;
  customers: number | null;
  pct_out: number | null;
  meets_min_customers: boolean;
  /** null when pct_out is null (no trusted denominator): then min_customers alone decides */
  meets_min_pct: boolean | null;
  alert: boolean;
  /** utilities only: the utility as a whole is at or above 10 % out */
  major_event_line?: boolean;
  utility_pct_out?: number | null;
}

export const ALERT_DEFAULTS = { min_customers: 100, min_pct: 1 };

export const DETAIL_NOTICE =
  'Areas are municipalities and townships as each utility reports them; a masked count ("<5") is shown as published and counted as its lower bound (1). Incidents are individual outages as the utility publishes them.';

export function evaluate(
  e: Omit<AlertEntry, 'meets_min_customers' | 'meets_min_pct' | 'alert'>,
  t: { min_customers: number; min_pct: number },
): AlertEntry {
  const meetsC = e.customers_out >= t.min_customers;
  const meetsP = e.pct_out === null ? null : e.pct_out >= t.min_pct;
  return { ...e, meets_min_customers: meetsC, meets_min_pct: meetsP, alert: meetsC && meetsP !== false };
}

export const majorLine = (utilityPct: number | null) => utilityPct !== null && utilityPct >= MAJOR_EVENT_PCT;

// ---- filters ----
export interface DetailFilters {
  utility?: string;
  active?: boolean;
  min_customers?: number;
  min_pct?: number;
}

export function parseDetailFilters(
  q: URLSearchParams,
  allowed: Array<keyof DetailFilters>,
  utilities: ReadonlySet<string>,
): DetailFilters {
  const f: DetailFilters = {};
  const u = q.get('utility');
  if (u !== null && allowed.includes('utility')) {
    if (!utilities.has(u))
      throw new ApiError({
        status: 400,
        code: 'invalid_parameter',
        param: 'utility',
        message: `No utility is named \`${u}\`. Names are listed in /api/v1/live/sources.`,
      });
    f.utility = u;
  }
  const a = q.get('active');
  if (a !== null && allowed.includes('active')) {
    if (a !== 'true' && a !== 'false')
      throw badParam('active', `Expected \`active\` to be true or false, got \`${a}\`.`);
    f.active = a === 'true';
  }
  const m = q.get('min_customers');
  if (m !== null && allowed.includes('min_customers')) {
    if (!/^\d{1,9}$/.test(m))
      throw badParam('min_customers', `Expected \`min_customers\` to be a whole number, got \`${m}\`.`);
    f.min_customers = Number(m);
  }
  const p = q.get('min_pct');
  if (p !== null && allowed.includes('min_pct')) {
    if (!/^\d{1,3}(\.\d+)?$/.test(p) || Number(p) > 100)
      throw badParam('min_pct', `Expected \`min_pct\` to be a percentage from 0 to 100, got \`${p}\`.`);
    f.min_pct = Number(p);
  }
  return f;
}

/** Function-layer pages of county areas and incidents (issue 24 part 6): a documented default and maximum. */
export const DETAIL_PAGE = { defaultLimit: 1_000, maxLimit: 5_000 } as const;

/** `limit` (1 … 5,000, default 1,000) and `offset` (from 0) of a county areas or incidents answer. */
export function parsePage(q: URLSearchParams): { limit: number; offset: number } {
  const l = q.get('limit');
  const o = q.get('offset');
  if (l !== null && (!/^\d{1,5}$/.test(l) || Number(l) < 1 || Number(l) > DETAIL_PAGE.maxLimit))
    throw badParam('limit', `Expected \`limit\` to be a whole number from 1 to ${DETAIL_PAGE.maxLimit}, got \`${l}\`.`);
  if (o !== null && !/^\d{1,9}$/.test(o))
    throw badParam('offset', `Expected \`offset\` to be a whole number from 0, got \`${o}\`.`);
  return { limit: l === null ? DETAIL_PAGE.defaultLimit : Number(l), offset: o === null ? 0 : Number(o) };
}

export function filterAreas(list: AreaRecord[], f: DetailFilters): AreaRecord[] {
  return list.filter(
    (a) =>
      (!f.utility || a.utility === f.utility) &&
      (f.active === undefined || a.active === f.active) &&
      (f.min_customers === undefined || a.out_lower >= f.min_customers),
  );
}

export function filterIncidents(list: IncidentRecord[], f: DetailFilters): IncidentRecord[] {
  return list.filter(
    (i) =>
      (!f.utility || i.utility === f.utility) && (f.min_customers === undefined || i.customers_out >= f.min_customers),
  );
}

// ---- renderings ----
export const AREA_COLUMNS = [
  'area_id',
  'name',
  'utility',
  'source_id',
  'fips',
  'customers_out',
  'out_display',
  'out_lower',
  'out_upper',
  'masked',
  'customers_served',
  'pct_out',
  'etr',
  'active',
] as const;
export const INCIDENT_COLUMNS = [
  'incident_id',
  'utility',
  'source_id',
  'fips',
  'customers_out',
  'etr',
  'crew_status',
  'cause',
  'started_at',
  'lat',
  'lon',
  'city',
  'first_seen_at',
  'etr_changes',
  'planned',
] as const;

export function toCsv(rows: object[], columns: readonly string[]): string {
  return csvText(
    columns,
    rows.map((r) => columns.map((c) => (r as Record<string, unknown>)[c])),
  );
}

export interface GeoMeta {
  generated: string;
  url: string;
  title: string;
  notice: string;
}

/** RFC 7946 FeatureCollection with a USGS-style `metadata` foreign member (generated, url, title, count). */
export function areasGeoJson(list: AreaRecord[], m: GeoMeta) {
  return {
    type: 'FeatureCollection',
    metadata: { ...m, count: list.length },
    features: list.map(({ bbox, path, ...props }) => ({
      type: 'Feature',
      id: props.area_id,
      geometry: bbox
        ? {
            type: 'Polygon',
            coordinates: [
              [
                [bbox[0], bbox[1]],
                [bbox[2], bbox[1]],
                [bbox[2], bbox[3]],
                [bbox[0], bbox[3]],
                [bbox[0], bbox[1]],
              ],
            ],
          }
        : null,
      properties: { ...props, path: path.join(' / ') },
    })),
  };
}

export function incidentsGeoJson(list: IncidentRecord[], m: GeoMeta) {
  return {
    type: 'FeatureCollection',
    metadata: { ...m, count: list.length },
    features: list.map(({ lat, lon, ...props }) => ({
      type: 'Feature',
      id: props.incident_id,
      geometry:
        lat !== null && lon !== null
          ? { type: 'Point', coordinates: [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6] }
          : null,
      properties: props,
    })),
  };
}
