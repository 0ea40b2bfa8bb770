// Chart text as SVG glyph outlines from one font, shaped and kerned by opentype.js: the rasteriser needs no font engine.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Font, Path, PathDataOptions, RenderOptions } from 'opentype.js';

export class ChartFontError extends Error {
  override name = 'ChartFontError';
}

export interface ChartText {
  /** ascender and line height ("normal") as fractions of the font size */
  ascent: number;
  lineHeight: number;
  /** advance width in pixels, kerned */
  width(text: string, size: number): number;
  /** SVG path data for `text` with its pen starting at (0, baseline 0): place it with a translate */
  path(text: string, size: number): string;
}

const SHAPE: RenderOptions = { kerning: true };
// flipY must be off: opentype.js's default for an options object mirrors each line inside its bounding box.
const PATH_DATA: PathDataOptions = { decimalPlaces: 2, optimize: false, flipY: false };
/**
 * Outlines kept per (size, text). Serialising an outline is most of opentype.js's cost, and most chart text repeats
 * (brand, subtitles, axis labels, source line); titles differ per county, so the cache is emptied when full.
 */
const CACHE_LIMIT = 2048;

/** The font the charts have always used (Geist Regular, shipped with @vercel/og), located without loading @vercel/og. */
export function chartFontFile(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@vercel/og')), 'Geist-Regular.ttf');
}

/** Parses the font: call once per process (charts.ts keeps the result). opentype.js is loaded only here. */
export async function loadChartText(file = chartFontFile()): Promise<ChartText> {
  const { default: opentype } = await import('opentype.js');
  try {
    return chartText(opentype.parse(readFileSync(file)));
  } catch (e) {
    throw new ChartFontError(
      `Could not read the chart font ${file}: ${(e as Error).message}. Reinstall dependencies (npm ci): @vercel/og ships it.`,
    );
  }
}

export function chartText(font: Font): ChartText {
  const em = font.unitsPerEm;
  const outlines = new Map<string, string>();
  return {
    ascent: font.ascender / em,
    lineHeight: (font.ascender - font.descender + font.tables.hhea.lineGap) / em,
    width: (text, size) => font.getAdvanceWidth(text, size, SHAPE),
    path(text, size) {
      const key = `${size} ${text}`;
      let d = outlines.get(key);
      if (d === undefined) {
        if (outlines.size >= CACHE_LIMIT) outlines.clear();
        d = snapped(font.getPath(text, 0, 0, size, SHAPE)).toPathData(PATH_DATA);
        outlines.set(key, d);
      }
      return d;
    },
  };
}

const COORDS = ['x', 'y', 'x1', 'y1', 'x2', 'y2'] as const;

/**
 * Coordinates rounded to the hundredths toPathData prints anyway. opentype.js 2.0.0 prints NaN for a coordinate a
 * hair off an integer (48.00000000000001), which stops the rasteriser reading the rest of the line's outline
 * (opentypejs/opentype.js#868; fixed on its master after 2.0.0): a rounded value is never that close to an integer.
 */
function snapped(path: Path): Path {
  for (const c of path.commands)
    for (const k of COORDS) {
      const v = c[k];
      if (v !== undefined) c[k] = Math.round(v * 100) / 100;
    }
  return path;
}
