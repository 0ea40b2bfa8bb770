// Branded PNG charts: fixed 1200 × 630, large type so they read when hotlinked small. Each carries the service name,
// the data source, the generation time and the citation line. Drawn as plain SVG (chart-svg.ts), rasterised by resvg,
// encoded by fast-png.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { encode } from 'fast-png';
import { type ChartSpec, chartSvg } from './chart-svg.ts';
import { type ChartText, loadChartText } from './chart-text.ts';

export { CHART_HEIGHT, CHART_WIDTH, type ChartSpec } from './chart-svg.ts';

type Resvg = typeof import('@resvg/resvg-wasm').Resvg;
interface Renderer {
  Resvg: Resvg;
  text: ChartText;
}

/** Loaded on first use, once per process: the rasteriser's WebAssembly and the font cost memory a pipeline without history never needs. */
let renderer: Promise<Renderer> | null = null;

async function load(): Promise<Renderer> {
  const [{ Resvg, initWasm }, text] = await Promise.all([import('@resvg/resvg-wasm'), loadChartText()]);
  await initWasm(readFileSync(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')));
  return { Resvg, text };
}

export async function renderChart(spec: ChartSpec, generatedAt: string): Promise<Buffer> {
  const { Resvg, text } = await (renderer ??= load().catch((e) => {
    renderer = null; // let the next chart try again rather than fail forever
    throw e;
  }));
  const svg = new Resvg(chartSvg(text, spec, generatedAt));
  try {
    const image = svg.render();
    try {
      return encodeChartPng(image.pixels, image.width, image.height);
    } finally {
      image.free();
    }
  } finally {
    svg.free();
  }
}

// fast-png's default level. On the county charts levels 1–2 are no faster; 6 is ~25 % smaller but deflates ~1.5×
// slower, 9 ~5× (fast-png deflates with fflate, in JavaScript).
const ZLIB = { level: 3 } as const;

/**
 * An opaque RGBA raster as a PNG: 8-bit palette when it has ≤ 256 colours (charts usually do: a few flat colours and
 * the anti-aliased edges between them), which is a quarter of the bytes to compress; else RGBA as it is.
 */
export function encodeChartPng(rgba: Uint8Array, width: number, height: number): Buffer {
  if (rgba.length !== width * height * 4)
    throw new RangeError(`Expected ${width * height * 4} bytes of RGBA for ${width} × ${height}, got ${rgba.length}.`);
  const indexed = toPalette(rgba.byteOffset % 4 === 0 ? rgba : rgba.slice(), width);
  const png = indexed
    ? encode({ width, height, data: indexed.data, channels: 1, depth: 8, palette: indexed.palette }, { zlib: ZLIB })
    : encode({ width, height, data: rgba, channels: 4, depth: 8 }, { zlib: ZLIB });
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** Palette indices and colours (RGB: the chart paints an opaque background first), or null above 256 colours. */
function toPalette(rgba: Uint8Array, width: number): { data: Uint8Array; palette: number[][] } | null {
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length / 4);
  const rows = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.length);
  const data = new Uint8Array(px.length);
  const slot = new Map<number, number>();
  const palette: number[][] = [];
  let last = -1;
  let index = 0;
  for (let row = 0; row < px.length; row += width) {
    // A row like the one above (margins, bar bodies) is copied: most of a chart's rows are.
    if (row > 0 && rows.compare(rows, 4 * (row - width), 4 * row, 4 * row, 4 * (row + width)) === 0) {
      data.copyWithin(row, row - width, row);
      continue;
    }
    for (let i = row; i < row + width; i++) {
      const c = px[i];
      if (c !== last) {
        let s = slot.get(c);
        if (s === undefined) {
          if (palette.length === 256) return null;
          slot.set(c, (s = palette.length));
          palette.push([rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]]);
        }
        last = c;
        index = s;
      }
      data[i] = index;
    }
  }
  return { data, palette };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG' || png.toString('latin1', 12, 16) !== 'IHDR')
    return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
