// Test helper for archive-replay.test.ts: the real storms it replays (a registry row, the wire shape each recording is
// served in), the test's own reading of each recorded payload (customers out per county and the feed's total, placed
// without the connectors: county names by the us-atlas names, points by county-lookup.ts), and the episode rule of
// history/derive.ts written out again in plain TypeScript.
import { createRequire } from 'node:module';
import { countyContaining } from './county-lookup.ts';

/** What the test reads from one recorded version: customers out per county (FIPS) and the source's own total. */
export interface Reading {
  counties: Map<string, number>;
  total: number;
}

export interface Storm {
  title: string;
  seq: string;
  /** replay every `stride`-th version (and the last, and any that writes the quarter of the one picked before it) */
  stride: number;
  source: string;
  /** the postal code the source's counties are in */
  state: string;
  /** the registry row (id,utility,state,connector,url,interval_min,tier,options) for the replay server's origin */
  row: (base: string) => string;
  /** the recorded file as the upstream answers a request (null: a 404); the file as is when absent */
  wrap?: (raw: Buffer, url: URL, file: string) => Buffer | null;
  read: (raw: Buffer) => Reading;
}

// County names → FIPS by the us-atlas names (as the feeds spell them: "St Lucie", "De Soto", "Santa-Rosa" match).
const key = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');
let atlasNames: Map<string, string> | undefined;
function countyNamed(stateFips: string, name: string): string | undefined {
  if (!atlasNames) {
    const topo = createRequire(import.meta.url)('us-atlas/counties-10m.json') as {
      objects: { counties: { geometries: Array<{ id: string | number; properties?: { name?: string } }> } };
    };
    atlasNames = new Map();
    for (const g of topo.objects.counties.geometries) {
      const fips = String(g.id).padStart(5, '0');
      atlasNames.set(`${fips.slice(0, 2)}|${key(g.properties?.name ?? '')}`, fips);
    }
  }
  return atlasNames.get(`${stateFips}|${key(name)}`);
}

/** "1,234" or 1234 → 1234. */
const count = (v: unknown): number => Number(String(v ?? 0).replace(/,/g, ''));

function tally(rows: Array<{ fips: string | undefined; out: number }>, total?: number): Reading {
  const counties = new Map<string, number>();
  for (const r of rows) if (r.fips) counties.set(r.fips, (counties.get(r.fips) ?? 0) + r.out);
  return { counties, total: total ?? rows.reduce((s, r) => s + r.out, 0) };
}

const json = (v: unknown) => Buffer.from(JSON.stringify(v));
const FL = '12';

export const STORMS: Storm[] = [
  {
    title: 'FPL county outages, Hurricane Ian (27–29 Sep 2022)',
    seq: 'fpl-county-ian-2022',
    stride: 1,
    source: 'fpl',
    state: 'FL',
    row: (base) => `fpl,Florida Power & Light,FL,fpl,${base}/county.json,15,1,`,
    read: (raw) => {
      const doc = JSON.parse(raw.toString('utf8')) as { outages: Array<Record<string, string>> };
      return tally(
        doc.outages.map((r) => ({ fips: countyNamed(FL, r['County Name']), out: count(r['Customers Out']) })),
      );
    },
  },
  {
    // Hourly; a county restored drops out of the list (no one out there then). Every fifth version over 8 days: the
    // quarters reached are hours apart, so each quarter a county counts is an episode of its own (gaps over 60 min).
    title: 'FPL storm mode, Hurricane Ian (27 Sep – 4 Oct 2022)',
    seq: 'fpl-storm-ian-2022',
    stride: 5,
    source: 'fpl-storm',
    state: 'FL',
    row: (base) => `fpl-storm,Florida Power & Light,FL,fpl,${base}/storm.json,60,1,`,
    read: (raw) => {
      const doc = JSON.parse(raw.toString('utf8')) as {
        counties: Record<string, { name: string; numberofoutages: number }>;
        statewide: { numberofoutages: number };
      };
      const rows = Object.values(doc.counties).map((c) => ({ fips: countyNamed(FL, c.name), out: c.numberofoutages }));
      return tally(rows, doc.statewide.numberofoutages);
    },
  },
  {
    // The scraper flattened each row's areaOfInterestSummary into summary_* keys: served folded back, as Duke sends it.
    title: 'Duke Energy Florida, 6–8 Feb 2020 storms',
    seq: 'duke-florida-counties-feb-2020',
    stride: 3,
    source: 'duke-florida',
    state: 'FL',
    row: (base) => `duke-florida,Duke Energy Florida,FL,duke,${base}/outage-maps/v1/counties?jurisdiction=DEF,5,1,`,
    wrap: (raw) => {
      const rows = JSON.parse(raw.toString('utf8')) as Array<Record<string, unknown>>;
      const data = rows.map((r) => {
        const row: Record<string, unknown> = { areaOfInterestSummary: {} };
        for (const [k, v] of Object.entries(r))
          if (k.startsWith('summary_')) (row.areaOfInterestSummary as Record<string, unknown>)[k.slice(8)] = v;
          else row[k] = v;
        return row;
      });
      return json({ data, errorMessages: [] });
    },
    read: (raw) => {
      const rows = JSON.parse(raw.toString('utf8')) as Array<Record<string, unknown>>;
      // Duke's manual figure when it sets one, else its computed maximum; "General office" is no county.
      return tally(
        rows.map((r) => ({
          fips: r.state === 'FL' ? countyNamed(FL, String(r.countyName)) : undefined,
          out: count(r.customersAffectedOverride ?? r.summary_maxCustomersAffected),
        })),
      );
    },
  },
  {
    // The recording is DTE's Kubra summary (its headline) only: served as the summary of one data generation per
    // version, with an empty cluster layer (no outage points were recorded), so the source has a total and no county.
    title: 'DTE Kubra summary, 3–6 Jul 2026 storm',
    seq: 'dte-kubra-summary-jul-2026',
    stride: 1,
    source: 'dte',
    state: 'MI',
    row: (base) =>
      `dte,DTE Electric,MI,kubra,${base}/stormcenter/api/v1/stormcenters/s/views/v/currentState?preview=false,5,1,"${JSON.stringify(
        { summary: true, counties: 'clusters', quadkeys: ['0302'] },
      ).replace(/"/g, '""')}"`,
    wrap: (raw, url, file) => {
      const gen = file.replace('.json', '');
      if (url.pathname.endsWith('/currentState'))
        return json({
          stormcenterDeploymentId: 'dte',
          data: { interval_generation_data: `data/${gen}`, cluster_interval_generation_data: `cluster-data/${gen}` },
        });
      if (url.pathname.includes('/configuration/'))
        return json({
          config: {
            reports: [],
            layers: { data: { interval_generation_data: [{ id: 'c1', type: 'CLUSTER_LAYER' }] } },
          },
        });
      if (url.pathname === `/data/${gen}/public/summary-1/data.json`) return raw;
      if (url.pathname.startsWith(`/cluster-data/${gen}/public/c1/`)) return json({ file_data: [] });
      return null;
    },
    read: (raw) => {
      const doc = JSON.parse(raw.toString('utf8')) as {
        summaryFileData: { totals: Array<{ total_cust_a: { val: number } }> };
      };
      return { counties: new Map(), total: doc.summaryFileData.totals[0].total_cust_a.val };
    },
  },
  {
    // Outage points: placed by the test's own lookup; planned outages (the feed's type) in progress count too, as the
    // map counts them (issue 36 part 3).
    title: 'Seattle City Light, 12 Mar 2026 wind event',
    seq: 'scl-events-wind-mar-2026',
    stride: 1,
    source: 'seattle-city-light',
    state: 'WA',
    row: (base) => `seattle-city-light,Seattle City Light,WA,datacapable,${base}/datacapable/v2/p/scl/map/events,15,2,`,
    read: (raw) => {
      const events = JSON.parse(raw.toString('utf8')) as Array<{
        type?: string;
        numPeople: number;
        latitude: number;
        longitude: number;
      }>;
      const rows = events.map((e) => ({ fips: countyContaining(e.longitude, e.latitude), out: e.numPeople }));
      const unplaced = rows.filter((r) => !r.fips);
      if (unplaced.length) throw new Error(`${unplaced.length} Seattle City Light point(s) outside every county`);
      return tally(rows);
    },
  },
];

export interface Episode {
  fips: string;
  start_at: string;
  end_at: string;
  peak: number;
  customer_hours: number;
  duration_h: number;
  size_class: string;
  threshold: number;
}

const QUARTER_MS = 15 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The episode rule (history/derive.ts): a quarter counts when customers out ≥ T = max(50, ⌈0.1 % of the county's
 * customers⌉); counting quarters at most 60 minutes apart are one episode, from the first to the last + 15 minutes,
 * with its peak and Σ customers out × 0.25 h.
 */
export function episodesOf(fips: string, series: Array<[number, number]>, customers: number | undefined): Episode[] {
  const threshold = Math.max(50, Math.ceil((customers ?? 0) / 1000));
  const counting = series.filter(([, n]) => n >= threshold).sort((a, b) => a[0] - b[0]);
  const out: Episode[] = [];
  let run: Array<[number, number]> = [];
  const close = () => {
    if (run.length === 0) return;
    const start = run[0][0];
    const end = run[run.length - 1][0] + QUARTER_MS;
    const peak = Math.max(...run.map(([, n]) => n));
    const size_class = peak >= 100_000 ? 'major' : peak >= 10_000 ? 'large' : peak >= 1_000 ? 'medium' : 'small';
    const customer_hours = run.reduce((s, [, n]) => s + n * 0.25, 0);
    out.push({
      fips,
      start_at: iso(start),
      end_at: iso(end),
      peak,
      customer_hours,
      duration_h: (end - start) / 3_600_000,
      size_class,
      threshold,
    });
    run = [];
  };
  for (const q of counting) {
    if (run.length && q[0] - run[run.length - 1][0] > 60 * 60_000) close();
    run.push(q);
  }
  close();
  return out;
}
