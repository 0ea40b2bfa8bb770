import { describe, expect, it } from 'vitest';
import { decadeSpec } from './chart-specs.ts';
import { pngSize, renderChart } from './charts.ts';
import type { CountyYear } from '../history/derive.ts';

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
