import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { CITATION } from '../contract/notice.ts';
import { loadChartText } from './chart-text.ts';
import { CHART_HEIGHT, CHART_WIDTH, type ChartSpec, encodeChartPng, pngSize, renderChart } from './charts.ts';

const AT = '2026-06-01T12:00:00Z';
const spec = (bars: ChartSpec['bars'], simulated = false): ChartSpec => ({
  title: 'Miami-Dade, FL',
  subtitle: 'Customer-hours without power, by year',
  unit: 'customer-hours',
  bars,
  source: 'EAGLE-I (ORNL), CC BY 4.0',
  simulated,
});

/** A PNG decoded by fast-png: (x, y) → [r, g, b], whether it is stored as a palette or as RGB(A). */
function pixels(png: Uint8Array) {
  const img = decode(png);
  const rgb = (x: number, y: number): number[] => {
    const i = y * img.width + x;
    if (img.palette) return img.palette[img.data[i]].slice(0, 3);
    return Array.from(img.data.subarray(i * img.channels, i * img.channels + 3));
  };
  return { img, rgb };
}

async function draw(s: ChartSpec) {
  const png = await renderChart(s, AT);
  const { img, rgb } = pixels(png);
  const hex = (x: number, y: number) =>
    `#${rgb(x, y)
      .map((v) => v.toString(16).padStart(2, '0'))
      .join('')}`;
  /** Leftmost, rightmost and topmost ink (red channel < 200) in rows [y0, y1) and columns [x0, x1). */
  const ink = (y0: number, y1: number, x0 = 0, x1 = img.width) => {
    let [left, right, top] = [Number.POSITIVE_INFINITY, -1, Number.POSITIVE_INFINITY];
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++)
        if (rgb(x, y)[0] < 200) [left, right, top] = [Math.min(left, x), Math.max(right, x), Math.min(top, y)];
    return { left, right, top };
  };
  return { png, hex, ink };
}

describe('chart rendering', () => {
  const bars = [
    { label: '2017', value: 400 },
    { label: '2018', value: 0 },
    { label: '2019', value: 0, missing: true },
    { label: '2020', value: 1000 },
    { label: '2021', value: 250 },
  ];

  it('draws each bar to its height on a y-axis of round ticks, the tallest red, a not-loaded year as an outlined slot', async () => {
    const { png, hex, ink } = await draw(spec(bars));
    expect(pngSize(png)).toEqual({ width: CHART_WIDTH, height: CHART_HEIGHT });
    // Layout: bars 1032 px wide from x = 120 (72 px of tick labels after the 48 px margin), 6 px gaps, axis top at
    // y = 468, 276 px for the top tick; the ticks step by 1, 2, 2.5 or 5 × 10^k, 3–5 of them (1000 → 250 steps).
    const colW = Math.floor((1032 - 6 * (bars.length - 1)) / bars.length);
    const max = Math.max(...bars.filter((b) => !b.missing).map((b) => b.value));
    const top = 1000;
    bars.forEach((b, i) => {
      const x = 120 + i * (colW + 6) + Math.floor(colW / 2);
      expect(hex(x, 469)).toBe('#111827'); // the axis
      if (b.missing) {
        expect(hex(x, 300)).toBe('#f3f4f6');
        const edge = Array.from({ length: 40 }, (_, k) => hex(x - Math.floor(colW / 2) + 1, 250 + k));
        expect(edge).toContain('#9ca3af'); // dashed: grey dashes ...
        expect(edge.filter((c) => c !== '#9ca3af').length).toBeGreaterThan(0); // ... and gaps
        return;
      }
      const h = Math.max(2, Math.round((b.value / top) * 276));
      const colour = b.value === max ? '#b91c1c' : '#f59e0b';
      expect(hex(x, 468 - h + 1), b.label).toBe(colour);
      if (b.value !== max) expect(hex(x, 468 - h - 3), b.label).toMatch(/^#(ffffff|e5e7eb)$/);
    });
    // Gridlines at 250, 500 and 750 across a zero bar's column, and tick labels left of the bars.
    const zeroCol = 120 + (colW + 6) + Math.floor(colW / 2);
    for (const t of [250, 500, 750]) expect(hex(zeroCol, 468 - Math.round((t / top) * 276)), String(t)).toBe('#e5e7eb');
    const labels = ink(190, 470, 48, 118);
    expect(labels.right).toBeGreaterThan(90);
    expect(labels.left).toBeGreaterThanOrEqual(48);
  });

  it('scales to the top tick, not to the tallest bar', async () => {
    const { hex } = await draw(
      spec([
        { label: 'a', value: 130 },
        { label: 'b', value: 20 },
      ]),
    );
    // 130 / 4 = 32.5 → a step of 50; ticks 0, 50, 100, 150: the red bar is 130/150 of 276 px tall.
    const colW = Math.floor((1032 - 6) / 2);
    const h = Math.round((130 / 150) * 276);
    expect(hex(120 + Math.floor(colW / 2), 468 - h + 1)).toBe('#b91c1c');
    expect(hex(120 + Math.floor(colW / 2), 468 - h - 3)).not.toBe('#b91c1c');
  });

  it('sets the text where the layout puts it: brand left, unit flush right, title, citation', async () => {
    const font = await loadChartText();
    const { ink, hex } = await draw(spec(bars));
    const header = ink(32, 66);
    expect(header.left).toBeGreaterThanOrEqual(48);
    expect(header.left).toBeLessThan(52);
    expect(header.right).toBeLessThanOrEqual(1152);
    expect(header.right).toBeGreaterThan(1146);
    const citation = ink(536, 560);
    const width = font.width(CITATION, 18);
    expect(width).toBeGreaterThan(600);
    expect(Math.abs(citation.right - (48 + width))).toBeLessThan(4);
    const title = ink(70, 120);
    expect(title.left).toBeLessThan(56); // the M's side bearing
    expect(Math.abs(title.right - (48 + font.width('Miami-Dade, FL', 44)))).toBeLessThan(4);
    // No "SIMULATED DATA" mark on real data, and the mark in its colour on simulated data.
    const marked = (h: typeof hex) => Array.from({ length: 300 }, (_, k) => h(900 + k, 50)).includes('#b45309');
    expect(marked(hex)).toBe(false);
    expect(marked((await draw(spec(bars, true))).hex)).toBe(true);
  });

  it('draws the accent over an accented letter in a place name', async () => {
    const font = await loadChartText();
    // [name, the accented letter's index]: the same name without the accent is drawn as the reference.
    const names: Array<[string, number]> = [
      ['Doña Ana, NM', 2],
      ['Añasco, PR', 1],
      ['Bayamón, PR', 5],
    ];
    for (const [name, k] of names) {
      const plain = name.normalize('NFD').replace(/\p{M}/gu, '');
      expect(plain).not.toBe(name);
      // The letter's columns, a pixel in from its advance on each side.
      const x0 = Math.ceil(48 + font.width(name.slice(0, k), 44)) + 1;
      const x1 = Math.floor(48 + font.width(name.slice(0, k + 1), 44)) - 1;
      const top = async (title: string) => (await draw({ ...spec(bars), title })).ink(66, 124, x0, x1).top;
      const [accented, bare] = [await top(name), await top(plain)];
      expect(bare, plain).toBeLessThan(124); // the bare letter has ink here: the columns are right
      expect(bare - accented, name).toBeGreaterThan(4); // the accent stands clear above the x-height
    }
  });

  it('says when there is nothing to draw, centred, without an axis', async () => {
    const { ink, hex } = await draw(spec([]));
    const message = ink(300, 370);
    expect(message.right).toBeGreaterThan(message.left);
    expect(Math.abs((message.left + message.right) / 2 - 600)).toBeLessThan(3);
    expect(hex(600, 469)).toBe('#ffffff');
  });

  it('sets a title too long for the width smaller instead of cutting it off', async () => {
    const long = { ...spec(bars), title: 'Prince of Wales-Hyder Census Area and Petersburg Borough, AK' };
    const title = (await draw(long)).ink(66, 124);
    expect(title.right).toBeLessThanOrEqual(1152);
    expect(title.right).toBeGreaterThan(1000);
  });
});

/** An opaque RGBA raster whose pixel (x, y) has the colour `colour(x, y)` (0xRRGGBB). */
function raster(width: number, height: number, colour: (x: number, y: number) => number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = colour(x, y);
      px.set([c >> 16, (c >> 8) & 0xff, c & 0xff, 255], (y * width + x) * 4);
    }
  return px;
}

/** The decoded image as RGBA bytes (alpha 255), to compare with the raster that was encoded. */
function decodedRgba(png: Uint8Array): number[] {
  const { img, rgb } = pixels(png);
  const out: number[] = [];
  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) out.push(...rgb(x, y), 255);
  return out;
}

describe('chart PNG encoding', () => {
  it('writes a palette PNG that decodes to the same pixels, repeated rows included', () => {
    // Three colours; rows 2–4 repeat row 1 (copied, not looked up), row 5 differs again.
    const colour = (x: number, y: number) => (y === 0 ? 0xffffff : y < 5 ? (x < 3 ? 0xb91c1c : 0xf59e0b) : 0xffffff);
    const px = raster(7, 6, colour);
    const png = encodeChartPng(px, 7, 6);
    expect(pixels(png).img).toMatchObject({ width: 7, height: 6, channels: 1 });
    expect(pixels(png).img.palette).toHaveLength(3);
    expect(decodedRgba(png)).toEqual([...px]);
    expect(pixels(png).rgb(1, 2)).toEqual([0xb9, 0x1c, 0x1c]);
  });

  it('falls back to RGBA above 256 colours, still lossless', () => {
    const colour = (x: number, y: number) => (x * 7 + y * 131) * 97;
    const px = raster(40, 20, colour);
    const distinct = new Set(Array.from({ length: 800 }, (_, i) => colour(i % 40, Math.floor(i / 40))));
    expect(distinct.size).toBeGreaterThan(256);
    const png = encodeChartPng(px, 40, 20);
    expect(pixels(png).img.palette).toBeUndefined();
    expect(decodedRgba(png)).toEqual([...px]);
  });

  it('refuses a buffer that does not match the size', () => {
    expect(() => encodeChartPng(new Uint8Array(10), 2, 2)).toThrow(/Expected 16 bytes of RGBA for 2 × 2, got 10/);
  });
});
