// What each county chart shows, built from the same data its JSON endpoints publish.
import type { CountyMonth, CountyYear } from '../history/derive.ts';
import type { ChartSpec } from './charts.ts';
import { SIMULATED_SOURCE } from '../history/provenance.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CREDIT = { eaglei: 'EAGLE-I (ORNL), CC BY 4.0', archive: 'live archive of utility outage feeds' };

/**
 * The credit line of a history chart, following where its rows' figures come from (`source`: eaglei, archive or
 * both; rows published before the archive have none and are EAGLE-I's): simulated history (or a simulated row)
 * credits no one (history/provenance.ts).
 */
export function historyCredit(rows: Array<{ source?: unknown }>, simulated: boolean): string {
  const of = new Set(rows.map((r) => (r.source === undefined || r.source === null ? 'eaglei' : String(r.source))));
  if (simulated || of.has(SIMULATED_SOURCE)) return 'SIMULATED history (built-in simulator, not real data)';
  const eaglei = of.has('eaglei') || of.has('both') || of.size === 0;
  const archive = of.has('archive') || of.has('both');
  return [eaglei && CREDIT.eaglei, archive && CREDIT.archive].filter(Boolean).join(' + ');
}

interface Place {
  name: string;
  state: string;
}

/**
 * The last ten years of the county, every year a bar: a year without episodes is a zero bar, not a gap, and a year
 * whose EAGLE-I file is not loaded is marked as such (its zero would be a claim the data cannot make). `loaded` is
 * the report data's loaded years (history/reports.ts); without it, the years between the first and last year with
 * data are taken as loaded.
 */
export function decadeSpec(c: Place, years: CountyYear[], simulated: boolean, loaded?: number[]): ChartSpec {
  const byYear = new Map(years.map((y) => [y.year, y.customer_hours]));
  const marked = loaded !== undefined && loaded.length > 0;
  const known = [...(marked ? loaded : []), ...byYear.keys()];
  const bars: ChartSpec['bars'] = [];
  if (known.length > 0) {
    const last = Math.max(...known);
    const first = marked ? last - 9 : Math.max(last - 9, Math.min(...known));
    const isLoaded = new Set(known);
    for (let year = first; year <= last; year++) {
      const bar = { label: String(year), value: byYear.get(year) ?? 0 };
      bars.push(!marked || isLoaded.has(year) ? bar : { ...bar, missing: true });
    }
  }
  return {
    title: `${c.name}, ${c.state}`,
    subtitle: 'Customer-hours without power, by year',
    unit: 'customer-hours',
    bars,
    source: historyCredit(years, simulated),
    simulated,
  };
}

/**
 * The 24 months up to the newest one with data (or, with `loaded` years, up to December of the newest loaded year or
 * `now`'s month if sooner), every month a bar: a month without episodes is a zero, a month of a year not loaded is
 * marked as such. Without `loaded`, the chart starts no earlier than the first month with data.
 */
export function monthlySpec(
  c: Place,
  months: CountyMonth[],
  simulated: boolean,
  loaded?: number[],
  now?: Date,
): ChartSpec {
  const index = (year: number, month: number) => year * 12 + month - 1;
  const byMonth = new Map(months.map((m) => [index(m.year, m.month), m]));
  const marked = loaded !== undefined && loaded.length > 0;
  const ends = [...byMonth.keys()];
  if (marked) {
    const lastLoaded = index(Math.max(...loaded), 12);
    ends.push(now ? Math.min(lastLoaded, index(now.getUTCFullYear(), now.getUTCMonth() + 1)) : lastLoaded);
  }
  const bars: ChartSpec['bars'] = [];
  const shown: CountyMonth[] = [];
  if (ends.length > 0) {
    const last = Math.max(...ends);
    const first = marked ? last - 23 : Math.max(last - 23, Math.min(...byMonth.keys()));
    const isLoaded = new Set(loaded ?? []);
    for (let k = first; k <= last; k++) {
      const [year, month] = [Math.floor(k / 12), (k % 12) + 1];
      const m = byMonth.get(k);
      if (m) shown.push(m);
      const bar = { label: `${MONTHS[month - 1]} ${String(year).slice(2)}`, value: m?.customer_hours ?? 0 };
      bars.push(!marked || isLoaded.has(year) ? bar : { ...bar, missing: true });
    }
  }
  return {
    title: `${c.name}, ${c.state}`,
    subtitle: 'Customer-hours without power, by month',
    unit: 'customer-hours',
    bars,
    source: historyCredit(shown, simulated),
    simulated,
  };
}

/**
 * Hourly maxima of the county's 15-minute readings over the 24 hours up to `now`. `recorded` lists the quarter hours
 * the pipeline ran (its state frames): an hour with none is a gap ("not recording"), not a zero; a county absent from
 * a recorded quarter hour had no one out.
 */
export function liveSpec(
  c: Place,
  series: Array<[string, number]>,
  now: Date,
  simulated: boolean,
  recorded?: string[],
): ChartSpec {
  const hour = Math.floor(now.getTime() / 3_600_000);
  const k = (at: string) => Math.floor(Date.parse(at) / 3_600_000) - (hour - 23);
  const ran = recorded ? new Set(recorded.map(k)) : null;
  const bars = Array.from({ length: 24 }, (_, i) => ({
    label: `${String((hour - 23 + i) % 24).padStart(2, '0')}h`,
    value: 0,
    ...(ran && !ran.has(i) ? { missing: true } : {}),
  }));
  for (const [at, n] of series) {
    const i = k(at);
    if (i >= 0 && i < 24 && !bars[i].missing) bars[i].value = Math.max(bars[i].value, n);
  }
  return {
    title: `${c.name}, ${c.state}`,
    subtitle: 'Customers without power, last 24 hours (UTC)',
    unit: 'customers out',
    bars,
    missingLabel: 'not recording',
    source: 'utility outage feeds',
    simulated,
  };
}
