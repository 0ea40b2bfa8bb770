import { describe, expect, it } from 'vitest';
import { ChartFontError, loadChartText } from './chart-text.ts';

describe('chart text', () => {
  it('kerns pairs as the font says, scaled with the size', async () => {
    const text = await loadChartText();
    expect(text.width('A', 100)).toBeGreaterThan(0);
    expect(text.width('AV', 100)).toBeLessThan(text.width('A', 100) + text.width('V', 100));
    expect(text.width('AV', 50)).toBeCloseTo(text.width('AV', 100) / 2, 6);
  });

  it('writes outlines as numbers only, whatever the size (opentype.js 2.0.0 can print NaN)', async () => {
    const text = await loadChartText();
    // 'customer-hours' at 22 px put a pen position a hair off an integer: NaN there before the coordinates were rounded.
    const lines = ['customer-hours', 'Customers without power, last 24 hours (UTC)', 'Doña Ana, NM', '2017 Jan 24 07h'];
    let checked = 0;
    for (const line of lines)
      for (let size = 10; size <= 60; size++) {
        const d = text.path(line, size);
        expect(d, `${line} at ${size}`).toMatch(/^M/);
        expect(d, `${line} at ${size}`).not.toMatch(/[^MLQCZ\d. -]/);
        checked++;
      }
    expect(checked).toBe(lines.length * 51);
  });

  it('draws accented letters as their base letter plus the accent, y down from the baseline', async () => {
    const text = await loadChartText();
    for (const [accented, base] of [
      ['ñ', 'n'],
      ['ó', 'o'],
    ]) {
      const [d, b] = [text.path(accented, 20), text.path(base, 20)];
      expect(b).toMatch(/^M[\d.-]+ [\d.-]+[LQ]/);
      expect(d.startsWith(b), accented).toBe(true); // a composite glyph: the base outline first ...
      expect(d.length).toBeGreaterThan(b.length + 20); // ... then the accent's
      // Above the baseline is negative y: the accent's highest point is above the base letter's.
      const top = (p: string) =>
        Math.min(...[...p.matchAll(/-?\d+(?:\.\d+)?/g)].filter((_, i) => i % 2 === 1).map(Number));
      expect(top(d)).toBeLessThan(top(b) - 2);
      expect(text.width(accented, 20)).toBe(text.width(base, 20));
    }
    expect(text.path(' ', 20)).toBe('');
  });

  it('says which font file it could not read and what to do', async () => {
    await expect(loadChartText('/nonexistent/Geist-Regular.ttf')).rejects.toThrow(ChartFontError);
    await expect(loadChartText('/nonexistent/Geist-Regular.ttf')).rejects.toThrow(
      /Could not read the chart font \/nonexistent\/Geist-Regular\.ttf: .*npm ci/,
    );
  });
});
