// Branded PNG charts (@vercel/og: satori + resvg): fixed 1200 × 630, large type so they read when hotlinked small.
// Each carries the service name, the data source, the generation time and the citation line.
import { CITATION } from '../contract/notice.ts';

export const CHART_WIDTH = 1200;
export const CHART_HEIGHT = 630;

export interface ChartSpec {
  title: string;
  subtitle: string;
  unit: string;
  /** `missing`: the year (or period) is not loaded: drawn as an outlined "no data" slot, not as a zero */
  bars: Array<{ label: string; value: number; missing?: boolean }>;
  source: string;
  simulated: boolean;
}

type El = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children?: unknown): El => ({
  type,
  props: { style: { display: 'flex', ...style }, children },
});

const fmt = (v: number) =>
  v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k` : String(Math.round(v));

// Satori lays out with flexbox and needs explicit sizes: every block has a fixed height in pixels.
const PLOT_H = 330;
const VALUE_H = 24;
const LABEL_H = 30;
const PLOT_W = CHART_WIDTH - 96;
const GAP = 6;

export function chartElement(spec: ChartSpec, generatedAt: string): El {
  const max = Math.max(1, ...spec.bars.map((b) => (b.missing ? 0 : b.value)));
  const labelEvery = Math.max(1, Math.ceil(spec.bars.length / 12));
  const barMax = PLOT_H - VALUE_H - LABEL_H;
  const colW = Math.floor((PLOT_W - GAP * Math.max(0, spec.bars.length - 1)) / Math.max(1, spec.bars.length));
  const plot =
    spec.bars.length === 0
      ? el(
          'div',
          {
            width: PLOT_W,
            height: PLOT_H,
            alignItems: 'center',
            justifyContent: 'center',
            fontSize: 40,
            color: '#6b7280',
          },
          'No data loaded for this chart yet',
        )
      : el(
          'div',
          { width: PLOT_W, height: PLOT_H, alignItems: 'flex-end', gap: GAP },
          spec.bars.map((b, i) =>
            el(
              'div',
              {
                flexDirection: 'column',
                alignItems: 'center',
                justifyContent: 'flex-end',
                width: colW,
                height: PLOT_H,
              },
              [
                el(
                  'div',
                  { height: VALUE_H, fontSize: b.missing ? 15 : 18, color: b.missing ? '#6b7280' : '#374151' },
                  b.missing ? 'not loaded' : b.value === max ? fmt(b.value) : '',
                ),
                b.missing
                  ? // An outlined slot the height of the plot: "no data", visibly not a zero.
                    el('div', {
                      width: colW,
                      height: barMax,
                      border: '2px dashed #9ca3af',
                      background: '#f3f4f6',
                      borderRadius: 3,
                    })
                  : el('div', {
                      width: colW,
                      height: Math.max(2, Math.round((b.value / max) * barMax)),
                      background: b.value === max && b.value > 0 ? '#b91c1c' : '#f59e0b',
                      borderRadius: 3,
                    }),
                el(
                  'div',
                  {
                    width: colW + GAP,
                    height: LABEL_H,
                    paddingTop: 6,
                    fontSize: 18,
                    color: '#374151',
                    borderTop: '3px solid #111827',
                    justifyContent: 'center',
                    overflow: 'visible',
                    whiteSpace: 'nowrap',
                  },
                  i % labelEvery === 0 ? b.label : '',
                ),
              ],
            ),
          ),
        );
  return el(
    'div',
    {
      width: CHART_WIDTH,
      height: CHART_HEIGHT,
      flexDirection: 'column',
      background: '#ffffff',
      padding: '32px 48px',
      boxSizing: 'border-box',
    },
    [
      el('div', { height: 34, justifyContent: 'space-between', alignItems: 'center' }, [
        el('div', { fontSize: 26, color: '#111827' }, 'US Power Outage Data'),
        el(
          'div',
          { fontSize: 22, color: spec.simulated ? '#b45309' : '#6b7280' },
          spec.simulated ? 'SIMULATED DATA' : spec.unit,
        ),
      ]),
      el('div', { height: 58, alignItems: 'center', fontSize: 44, color: '#111827' }, spec.title),
      el('div', { height: 36, alignItems: 'center', fontSize: 26, color: '#4b5563' }, spec.subtitle),
      el('div', { width: PLOT_W, height: PLOT_H, marginTop: 8 }, [plot]),
      el(
        'div',
        { height: 26, marginTop: 10, alignItems: 'center', fontSize: 18, color: '#6b7280' },
        `Source: ${spec.source} · generated ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
      ),
      el('div', { height: 26, alignItems: 'center', fontSize: 18, color: '#6b7280' }, CITATION),
    ],
  );
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
  if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG' || png.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
