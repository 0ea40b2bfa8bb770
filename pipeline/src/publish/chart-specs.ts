// What each county chart shows, built from the same data its JSON endpoints publish.
import type { CountyMonth, CountyYear } from '../history/derive.ts';
import type { ChartSpec } from './charts.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const CREDIT = { eaglei: 'EAGLE-I (ORNL), CC BY 4.0', archive: 'live archive of utility outage feeds' };

/**
 * The credit line of a history chart, following where its rows' figures come from (`source`: eaglei, archive or
 * both; rows published before the archive have none and are EAGLE-I's): simulated history credits no one.
 */
export function historyCredit(rows: Array<{ source?: unknown }>, simulated: boolean): string {
  if (simulated) return 'SIMULATED history (built-in simulator, not real data)';
  const of = new Set(rows.map((r) => (r.source === undefined || r.source === null ? 'eaglei' : String(r.source))));
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

export function monthlySpec(c: Place, months: CountyMonth[], simulated: boolean): ChartSpec {
  const last = months.slice(-24);
  return {
    title: `${c.name}, ${c.state}`,
    subtitle: 'Customer-hours without power, by month',
    unit: 'customer-hours',
    bars: last.map((m) => ({ label: `${MONTHS[m.month - 1]} ${String(m.year).slice(2)}`, value: m.customer_hours })),
    source: historyCredit(last, simulated),
    simulated,
  };
}

/** Hourly maxima of the county's 15-minute readings over the 24 hours up to `now`. */
export function liveSpec(c: Place, series: Array<[string, number]>, now: Date, simulated: boolean): ChartSpec {
  const hour = Math.floor(now.getTime() / 3_600_000);
  const bars = Array.from({ length: 24 }, (_, i) => ({
    label: `${String((hour - 23 + i) % 24).padStart(2, '0')}h`,
    value: 0,
  }));
  for (const [at, n] of series) {
    const k = Math.floor(Date.parse(at) / 3_600_000) - (hour - 23);
    if (k >= 0 && k < 24) bars[k].value = Math.max(bars[k].value, n);
  }
  return {
    title: `${c.name}, ${c.state}`,
    subtitle: 'Customers without power, last 24 hours (UTC)',
    unit: 'customers out',
    bars,
    source: 'utility outage feeds',
    simulated,
  };
}
