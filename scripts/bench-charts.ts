// Chart render time (issue 12 part 5): median ms per 1200 × 630 PNG for each county chart, the font and the rasteriser
// loaded once before timing (a publish or the function layer pays that once per process; the first row shows it).
import { pathToFileURL } from 'node:url';
import { decadeSpec, liveSpec, monthlySpec } from '../pipeline/src/publish/chart-specs.ts';
import { type ChartSpec, pngSize, renderChart } from '../pipeline/src/publish/charts.ts';

export interface ChartRow {
  chart: string;
  renders: number;
  /** wall time, and CPU time (what the render costs when other work shares the machine) */
  median_ms: number;
  p90_ms: number;
  cpu_median_ms: number;
  target: string;
}

/** A new title every render, as in a publish (one county after another): titles do not repeat from a cache. */
const place = (i: number) => ({ name: `${['Miami-Dade', 'Doña Ana', 'Bayamón', 'Añasco'][i % 4]} ${i}`, state: 'FL' });
const NOW = new Date('2026-06-01T12:00:00Z');

/** Plausible county data: a decade with a year not loaded and a year without episodes, 24 months, a day's series. */
function specs(i = 0): Array<[string, ChartSpec]> {
  const year = (y: number, h: number) => ({
    year: y,
    episodes: 1,
    customer_hours: h,
    max_out: 0,
    longest_h: 0,
    by_size: {},
    source: 'eaglei' as const,
  });
  const years = [2017, 2018, 2019, 2021, 2023, 2024, 2025, 2026].map((y, i) => year(y, ((i * 7919) % 97) * 1_000));
  const loaded = [2016, 2017, 2018, 2019, 2021, 2022, 2023, 2024, 2025, 2026];
  const months = Array.from({ length: 24 }, (_, i) => ({
    year: 2024 + Math.floor(i / 12),
    month: (i % 12) + 1,
    episodes: 1,
    customer_hours: ((i * 4421) % 89) * 100,
    max_out: 0,
    source: 'eaglei' as const,
  }));
  const series = Array.from({ length: 96 }, (_, i): [string, number] => [
    new Date(NOW.getTime() - i * 900_000).toISOString(),
    (i * 37) % 500,
  ]);
  return [
    ['decade', decadeSpec(place(i), years, false, loaded)],
    ['monthly', monthlySpec(place(i), months, false)],
    ['live', liveSpec(place(i), series, NOW, true)],
  ];
}

export async function benchCharts(renders = Number(process.env.BENCH_CHART_RENDERS ?? 40)): Promise<ChartRow[]> {
  const rows: ChartRow[] = [];
  const all: number[] = [];
  const allCpu: number[] = [];
  const at = NOW.toISOString();
  const cold = performance.now();
  const coldCpu = process.cpuUsage();
  await renderChart(specs()[0][1], at);
  const coldMs = Math.round((performance.now() - cold) * 10) / 10;
  const c0 = process.cpuUsage(coldCpu);
  const once = { median_ms: coldMs, p90_ms: coldMs, cpu_median_ms: Math.round((c0.user + c0.system) / 100) / 10 };
  rows.push({ chart: 'first in a process (loads font + rasteriser)', renders: 1, ...once, target: '' });
  for (const [k, [chart, spec]] of specs().entries()) {
    const first = await renderChart(spec, at); // warm: this chart's glyphs
    if (pngSize(first)?.width !== 1200) throw new Error(`${chart} chart did not render a 1200-wide PNG`);
    const ms: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < renders; i++) {
      const next = specs(i + 1)[k][1];
      const t = performance.now();
      const c = process.cpuUsage();
      await renderChart(next, at);
      const d = process.cpuUsage(c);
      ms.push(performance.now() - t);
      cpu.push((d.user + d.system) / 1000);
    }
    all.push(...ms);
    allCpu.push(...cpu);
    rows.push({ chart, renders, ...stats(ms), cpu_median_ms: stats(cpu).median_ms, target: '≤ 40 ms' });
  }
  const total = { ...stats(all), cpu_median_ms: stats(allCpu).median_ms };
  rows.push({ chart: 'all (median per PNG)', renders: all.length, ...total, target: '≤ 40 ms' });
  return rows;
}

function stats(ms: number[]): { median_ms: number; p90_ms: number } {
  const s = [...ms].sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return { median_ms: round(s[Math.floor(s.length / 2)]), p90_ms: round(s[Math.floor(s.length * 0.9)]) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchCharts());
