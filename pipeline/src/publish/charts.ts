// Branded PNG charts (@vercel/og: satori + resvg): fixed 1200 × 630, large type so they read when hotlinked small.
// Each carries the service name, the data source, the generation time and the citation line.
import { CITATION } from '../contract/notice.ts';

export const CHART_WIDTH = 1200;
export const CHART_HEIGHT = 630;

export interface ChartSpec {
  title: string;
  subtitle: string;
  unit: string;
  bars: Array<{ label: string; value: number }>;
  source: string;
  simulated: boolean;
}

type El = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children?: unknown): El => ({ type, props: { style: { display: 'flex', ...style }, children } });

const fmt = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k` : String(Math.round(v)));

export function chartElement(spec: ChartSpec, generatedAt: string): El {
  const max = Math.max(1, ...spec.bars.map((b) => b.value));
  const labelEvery = Math.max(1, Math.ceil(spec.bars.length / 12));
  const plot = spec.bars.length === 0
    ? el('div', { flexGrow: 1, alignItems: 'center', justifyContent: 'center', fontSize: 40, color: '#6b7280' }, 'No data loaded for this chart yet')
    : el('div', { flexGrow: 1, alignItems: 'flex-end', gap: 4, borderBottom: '3px solid #111827', paddingTop: 30 },
      spec.bars.map((b, i) => el('div', { flexDirection: 'column', alignItems: 'center', justifyContent: 'flex-end', flexGrow: 1, flexBasis: 0, height: '100%' }, [
        el('div', { fontSize: 18, color: '#374151', marginBottom: 4 }, b.value === max ? fmt(b.value) : ''),
        el('div', { width: '100%', height: `${Math.max(0.5, (b.value / max) * 100)}%`, background: b.value === max ? '#b91c1c' : '#f59e0b', borderRadius: 3 }),
        el('div', { fontSize: 18, color: '#374151', marginTop: 6, height: 24 }, i % labelEvery === 0 ? b.label : ''),
      ])));
  return el('div', { width: '100%', height: '100%', flexDirection: 'column', background: '#ffffff', padding: '36px 48px', fontFamily: 'Geist', boxSizing: 'border-box' }, [
    el('div', { justifyContent: 'space-between', alignItems: 'center' }, [
      el('div', { fontSize: 26, fontWeight: 700, color: '#111827' }, 'US Power Outage Data'),
      el('div', { fontSize: 22, color: spec.simulated ? '#b45309' : '#6b7280' }, spec.simulated ? 'SIMULATED DATA' : spec.unit),
    ]),
    el('div', { fontSize: 46, fontWeight: 700, color: '#111827', marginTop: 10 }, spec.title),
    el('div', { fontSize: 26, color: '#4b5563', marginTop: 4 }, spec.subtitle),
    el('div', { flexGrow: 1, marginTop: 10, marginBottom: 10 }, [plot]),
    el('div', { justifyContent: 'space-between', fontSize: 18, color: '#6b7280' }, [
      el('div', {}, `Source: ${spec.source} · generated ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`),
    ]),
    el('div', { fontSize: 18, color: '#6b7280' }, CITATION),
  ]);
}

/** Loaded on first use: the renderer's WebAssembly and font cost memory a pipeline without history never needs. */
let og: Promise<typeof import('@vercel/og')> | null = null;

export async function renderChart(spec: ChartSpec, generatedAt: string): Promise<Buffer> {
  const { ImageResponse } = await (og ??= import('@vercel/og'));
  const res = new ImageResponse(chartElement(spec, generatedAt) as never, { width: CHART_WIDTH, height: CHART_HEIGHT });
  return Buffer.from(await res.arrayBuffer());
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG' || png.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
