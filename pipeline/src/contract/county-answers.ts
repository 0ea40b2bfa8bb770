// Answers about any county, quiet or not, from the published documents: its areas (prebuilt for counties with an
// outage, else from the per-state file of quiet areas) and its alert evaluation. Shared by the function layer and the
// scheduled sync pushes, so a watched county with nothing out gets the same full answer in both.
import { endpoint } from './catalogue.ts';
import { fileFor } from './urls.ts';
import { evaluate, majorLine, type AlertEntry, type AreaRecord } from './county-detail.ts';

/** Reads a published JSON document's `data` (null when there is none). */
export type DocReader = (rel: string) => (Record<string, unknown> & { generated_at?: string }) | null;

/** Internal (never routed): the areas the feeds list in a state's counties that have nothing out, keyed by FIPS. */
export const quietAreasFile = (state: string) => `api/v1/live/_quiet-areas/${state.toLowerCase()}.json`;

interface CountyDoc {
  name: string;
  state: string;
  customers_out: number;
  denominator: number | null;
  pct_out: number | null;
  sources: Array<{ source_id: string; utility: string; customers_out: number; customers_served: number | null }>;
}

/** Every area the feeds list in the county (active or not), or null for an unknown county. */
export function countyAreas(read: DocReader, fips: string): AreaRecord[] | null {
  const county = read(fileFor(endpoint('live.county'), { fips }, 'json')) as
    | (CountyDoc & Record<string, unknown>)
    | null;
  if (!county) return null;
  const pre = read(fileFor(endpoint('live.county.areas'), { fips }, 'json'));
  if (pre) return (pre.areas as AreaRecord[] | undefined) ?? [];
  const quiet = read(quietAreasFile(county.state))?.areas as Record<string, AreaRecord[]> | undefined;
  return quiet?.[fips] ?? [];
}

export interface CountyAlerts {
  generated_at: string | null;
  fips: string;
  thresholds: { min_customers: number; min_pct: number };
  alert: boolean;
  county: AlertEntry;
  utilities: AlertEntry[];
  municipalities: AlertEntry[];
}

/** The county's alert evaluation at thresholds `t` (the prebuilt one re-evaluated, else from its live status). */
export function countyAlerts(
  read: DocReader,
  fips: string,
  t: { min_customers: number; min_pct: number },
  utility?: string,
): CountyAlerts | null {
  const county = read(fileFor(endpoint('live.county'), { fips }, 'json')) as
    | (CountyDoc & { generated_at?: string })
    | null;
  if (!county) return null;
  const pre = read(fileFor(endpoint('live.county.alerts'), { fips }, 'json')) as {
    county: AlertEntry;
    utilities: AlertEntry[];
    municipalities: AlertEntry[];
  } | null;
  const sources =
    (read(fileFor(endpoint('live.sources'), {}, 'json'))?.sources as
      | Array<{ id: string; pct_out: number | null }>
      | undefined) ?? [];
  const pct = new Map(sources.map((s) => [s.id, s.pct_out]));
  const county0 =
    pre?.county ??
    evaluate(
      {
        scope: 'county',
        name: county.name,
        utility: null,
        customers_out: county.customers_out,
        customers: county.denominator,
        pct_out: county.pct_out,
      },
      t,
    );
  const utils0 =
    pre?.utilities ??
    county.sources.map((s) =>
      evaluate(
        {
          scope: 'utility',
          name: s.utility,
          utility: s.utility,
          customers_out: s.customers_out,
          customers: s.customers_served,
          pct_out: null,
          major_event_line: majorLine(pct.get(s.source_id) ?? null),
          utility_pct_out: pct.get(s.source_id) ?? null,
        },
        t,
      ),
    );
  const re = (x: AlertEntry) => evaluate(x, t);
  const keep = (x: AlertEntry) => !utility || x.utility === utility;
  const entries = {
    county: re(county0),
    utilities: utils0.filter(keep).map(re),
    municipalities: (pre?.municipalities ?? []).filter(keep).map(re),
  };
  const alert = [entries.county, ...entries.utilities, ...entries.municipalities].some((x) => x.alert);
  return { generated_at: county.generated_at ?? null, fips, thresholds: t, alert, ...entries };
}
