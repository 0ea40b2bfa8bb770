import { describe, expect, it } from 'vitest';
import { decadeSpec, liveSpec, monthlySpec } from './chart-specs.ts';
import { pngSize, renderChart } from './charts.ts';
import type { CountyMonth, CountyYear } from '../history/derive.ts';

const harris = { name: 'Harris', state: 'TX' };
const year = (y: number, customer_hours: number): CountyYear => ({
  year: y,
  episodes: customer_hours > 0 ? 1 : 0,
  customer_hours,
  max_out: 0,
  longest_h: 0,
  by_size: {},
  source: 'eaglei',
});

describe('decade chart spec', () => {
  it('shows every year of the range, a year without episodes as a zero bar', () => {
    const spec = decadeSpec(harris, [year(2019, 120), year(2021, 40), year(2023, 7)], false);
    expect(spec.bars).toEqual([
      { label: '2019', value: 120 },
      { label: '2020', value: 0 },
      { label: '2021', value: 40 },
      { label: '2022', value: 0 },
      { label: '2023', value: 7 },
    ]);
  });

  it('marks the years not loaded and keeps the last ten years up to the newest loaded one', () => {
    const loaded = [2014, 2015, 2016, 2017, 2018, 2019, 2021, 2022, 2023, 2024, 2025, 2026];
    const data = [year(2015, 9), year(2019, 300), year(2023, 12)];
    const spec = decadeSpec(harris, data, true, loaded);
    expect(spec.bars.map((b) => b.label)).toEqual(Array.from({ length: 10 }, (_, i) => String(2017 + i)));
    expect(spec.bars.filter((b) => b.missing).map((b) => b.label)).toEqual(['2020']);
    expect(spec.bars.find((b) => b.label === '2022')).toEqual({ label: '2022', value: 0 });
    expect(spec.bars.reduce((s, b) => s + b.value, 0)).toBe(300 + 12);
  });

  it('has no bars when nothing is loaded, and renders a chart with a not-loaded year', async () => {
    expect(decadeSpec(harris, [], false).bars).toEqual([]);
    const spec = decadeSpec(harris, [year(2025, 50)], false, [2024, 2025]);
    expect(spec.bars.filter((b) => b.missing)).toHaveLength(8); // 2016–2023
    expect(pngSize(await renderChart(spec, '2026-06-01T00:00:00Z'))).toEqual({ width: 1200, height: 630 });
  });
});

const month = (year: number, m: number, customer_hours: number): CountyMonth => ({
  year,
  month: m,
  episodes: 1,
  customer_hours,
  max_out: 0,
  source: 'eaglei',
});

describe('monthly chart spec', () => {
  it('spaces the months evenly: every month of the window a bar, one without episodes a zero', () => {
    const spec = monthlySpec(harris, [month(2024, 11, 5), month(2025, 2, 30)], false);
    expect(spec.bars).toEqual([
      { label: 'Nov 24', value: 5 },
      { label: 'Dec 24', value: 0 },
      { label: 'Jan 25', value: 0 },
      { label: 'Feb 25', value: 30 },
    ]);
  });

  it('ends at the newest loaded year (or now) and marks the months of years not loaded', () => {
    const data = [month(2023, 6, 9), month(2025, 1, 40)];
    const spec = monthlySpec(harris, data, false, [2023, 2025, 2026], new Date('2026-03-15T00:00:00Z'));
    expect(spec.bars).toHaveLength(24);
    expect(spec.bars[0].label).toBe('Apr 24');
    expect(spec.bars.at(-1)!.label).toBe('Mar 26');
    expect(spec.bars.filter((b) => b.missing).map((b) => b.label)).toEqual(
      ['Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].map((m) => `${m} 24`),
    );
    expect(spec.bars.find((b) => b.label === 'Jan 25')).toEqual({ label: 'Jan 25', value: 40 });
    expect(spec.bars.find((b) => b.label === 'Feb 26')).toEqual({ label: 'Feb 26', value: 0 });
  });
});

describe('live chart spec', () => {
  const now = new Date('2026-09-02T12:10:00Z');
  it('draws the hours the pipeline did not record as gaps, not zeros', () => {
    // Running since 09:15: quarter hours from then on; the county had 120 out at 10:00 and none listed after.
    const recorded = [
      '2026-09-02T09:15:00.000Z',
      '2026-09-02T10:00:00.000Z',
      '2026-09-02T11:45:00.000Z',
      '2026-09-02T12:00:00.000Z',
    ];
    const spec = liveSpec(harris, [['2026-09-02T10:00:00.000Z', 120]], now, false, recorded);
    expect(spec.bars.filter((b) => !b.missing).map((b) => [b.label, b.value])).toEqual([
      ['09h', 0],
      ['10h', 120],
      ['11h', 0],
      ['12h', 0],
    ]);
    expect(spec.bars.filter((b) => b.missing)).toHaveLength(20);
    expect(spec.missingLabel).toBe('not recording');
  });
});
