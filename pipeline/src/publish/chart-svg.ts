// The chart drawn as plain SVG (rectangles and glyph outlines): the layout the satori version had, without a layout engine.
import { CITATION } from '../contract/notice.ts';
import type { ChartText } from './chart-text.ts';

export const CHART_WIDTH = 1200;
export const CHART_HEIGHT = 630;

export interface ChartSpec {
  title: string;
  subtitle: string;
  unit: string;
  /** `missing`: the year (or period) is not loaded: drawn as an outlined "no data" slot, not as a zero */
  bars: Array<{ label: string; value: number; missing?: boolean }>;
  /** what a run of missing bars says over itself (default "not loaded") */
  missingLabel?: string;
  source: string;
  simulated: boolean;
}

const PAD_X = 48;
const PLOT_W = CHART_WIDTH - 2 * PAD_X;
/** the y-axis's tick labels, left of the bars */
const Y_GUTTER = 72;
const BARS_X = PAD_X + Y_GUTTER;
const BARS_W = PLOT_W - Y_GUTTER;
const PLOT_TOP = 168; // padding 32 + header 34 + title 58 + subtitle 36 + gap 8
const PLOT_H = 330;
const VALUE_H = 24;
const LABEL_H = 30;
const AXIS = 3;
const GAP = 6;
const BAR_MAX = PLOT_H - VALUE_H - LABEL_H;
const AXIS_Y = PLOT_TOP + PLOT_H - LABEL_H;

const INK = '#111827';
const GRID = '#e5e7eb';
const TEXT = '#374151';
const MUTED = '#6b7280';

const round = (v: number) => Math.round(v * 100) / 100;
const fmt = (v: number) =>
  v >= 1e6 ? `${(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${(v / 1e3).toFixed(v >= 1e4 ? 0 : 1)}k` : String(Math.round(v));

export function chartSvg(font: ChartText, spec: ChartSpec, generatedAt: string): string {
  /** A line of text: `align` says whether x is its left edge, centre or right edge; `top` is its line box's top. */
  const text = (s: string, x: number, top: number, size: number, fill: string, align: 'start' | 'middle' | 'end') => {
    const w = align === 'start' ? 0 : font.width(s, size);
    const left = align === 'start' ? x : align === 'middle' ? x - w / 2 : x - w;
    const d = font.path(s, size);
    const at = `${round(left)} ${round(top + font.ascent * size)}`;
    return d === '' ? '' : `<path fill="${fill}" transform="translate(${at})" d="${d}"/>`;
  };
  /** Vertically centred in a box, as flexbox `align-items: center` placed it. */
  const centred = (boxTop: number, boxH: number, size: number) => boxTop + (boxH - font.lineHeight * size) / 2;
  const right = CHART_WIDTH - PAD_X;
  // A title or subtitle too long for the width is set smaller rather than cut off at the edge.
  const sizeToFit = (s: string, size: number) =>
    Math.min(size, Math.floor((size * PLOT_W) / Math.max(1, font.width(s, size))));
  const titleSize = sizeToFit(spec.title, 44);
  const subtitleSize = sizeToFit(spec.subtitle, 26);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}">`,
    `<rect width="${CHART_WIDTH}" height="${CHART_HEIGHT}" fill="#ffffff"/>`,
    text('US Power Outage Data', PAD_X, centred(32, 34, 26), 26, INK, 'start'),
    spec.simulated
      ? text('SIMULATED DATA', right, centred(32, 34, 22), 22, '#b45309', 'end')
      : text(spec.unit, right, centred(32, 34, 22), 22, MUTED, 'end'),
    text(spec.title, PAD_X, centred(66, 58, titleSize), titleSize, INK, 'start'),
    text(spec.subtitle, PAD_X, centred(124, 36, subtitleSize), subtitleSize, '#4b5563', 'start'),
    ...plot(spec, text, centred),
    text(
      `Source: ${spec.source} · generated ${generatedAt.slice(0, 16).replace('T', ' ')} UTC`,
      PAD_X,
      centred(508, 26, 18),
      18,
      MUTED,
      'start',
    ),
    text(CITATION, PAD_X, centred(534, 26, 18), 18, MUTED, 'start'),
    '</svg>',
  ];
  return parts.join('');
}

type Text = (
  s: string,
  x: number,
  top: number,
  size: number,
  fill: string,
  align: 'start' | 'middle' | 'end',
) => string;

/** Ticks of the y-axis: 0 up to the first multiple of a 1, 2, 2.5 or 5 × 10^k step at or above `max`, 3–5 of them. */
export function yTicks(max: number): number[] {
  const raw = Math.max(1, max) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const ticks = [0];
  while (ticks.at(-1)! < max) ticks.push(ticks.length * step);
  return ticks.length > 1 ? ticks : [0, step];
}

/** Consecutive missing bars as [first, last] index pairs: one label over each run, not one per bar. */
function missingRuns(bars: ChartSpec['bars']): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  bars.forEach((b, i) => {
    if (!b.missing) return;
    const last = runs.at(-1);
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  });
  return runs;
}

function plot(spec: ChartSpec, text: Text, centred: (top: number, h: number, size: number) => number): string[] {
  const n = spec.bars.length;
  if (n === 0)
    return [
      text('No data loaded for this chart yet', PAD_X + PLOT_W / 2, centred(PLOT_TOP, PLOT_H, 40), 40, MUTED, 'middle'),
    ];
  const max = Math.max(0, ...spec.bars.map((b) => (b.missing ? 0 : b.value)));
  const ticks = yTicks(max);
  const top = ticks.at(-1)!;
  const labelEvery = Math.max(1, Math.ceil(n / 12));
  const colW = Math.floor((BARS_W - GAP * (n - 1)) / n);
  const xOf = (i: number) => BARS_X + i * (colW + GAP);
  const out: string[] = [];
  for (const t of ticks) {
    const y = AXIS_Y - Math.round((t / top) * BAR_MAX);
    if (t > 0)
      out.push(`<rect x="${BARS_X - GAP / 2}" y="${y}" width="${n * (colW + GAP)}" height="1" fill="${GRID}"/>`);
    out.push(text(fmt(t), BARS_X - 14, centred(y - 12, 24, 18), 18, MUTED, 'end'));
  }
  spec.bars.forEach((b, i) => {
    const x = xOf(i);
    const mid = x + colW / 2;
    if (b.missing) {
      // An outlined slot the height of the plot: "no data", visibly not a zero.
      const slotTop = AXIS_Y - BAR_MAX;
      out.push(
        `<rect x="${x}" y="${slotTop}" width="${colW}" height="${BAR_MAX}" rx="3" fill="#f3f4f6"/>`,
        `<rect x="${x + 1}" y="${slotTop + 1}" width="${colW - 2}" height="${BAR_MAX - 2}" rx="2" fill="none" stroke="#9ca3af" stroke-width="2" stroke-dasharray="4 2"/>`,
      );
    } else {
      const h = Math.max(2, Math.round((b.value / top) * BAR_MAX));
      const fill = b.value === max && b.value > 0 ? '#b91c1c' : '#f59e0b';
      out.push(
        `<rect x="${x}" y="${AXIS_Y - h}" width="${colW}" height="${h}" rx="${Math.min(3, h / 2)}" fill="${fill}"/>`,
      );
      if (b.value === max) out.push(text(fmt(b.value), mid, AXIS_Y - h - VALUE_H, 18, TEXT, 'middle'));
    }
    if (i % labelEvery === 0) out.push(text(b.label, mid, AXIS_Y + AXIS + 6, 18, TEXT, 'middle'));
  });
  for (const [a, b] of missingRuns(spec.bars)) {
    const mid = (xOf(a) + xOf(b) + colW) / 2;
    out.push(text(spec.missingLabel ?? 'not loaded', mid, AXIS_Y - BAR_MAX - VALUE_H, 15, MUTED, 'middle'));
  }
  // The axis runs under every column and half a gap beyond the outer ones.
  out.push(`<rect x="${BARS_X - GAP / 2}" y="${AXIS_Y}" width="${n * (colW + GAP)}" height="${AXIS}" fill="${INK}"/>`);
  return out;
}
