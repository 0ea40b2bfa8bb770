// The CLI's tables for people (issue 38 part 7: `outage sources` printed an 837-character `console.table`): columns
// aligned by display width (a CJK character takes two cells, a combining mark none), numbers right-aligned, and on a
// terminal narrower than the table the long text columns cut with `…`, then the least needed columns left out. Every
// cell is escaped for the terminal first (terminal-text.ts): upstream names and messages are hostile text.
import { terminalText } from '../terminal-text.ts';

export interface Column<R> {
  header: string;
  value: (row: R) => string | number | null | undefined;
  /** numbers and times: right-aligned */
  align?: 'right';
  /** a text column that may be cut with `…` down to this width when the terminal is narrow */
  shrinkTo?: number;
  /** left out when the terminal is too narrow even with every text column cut: higher goes first */
  dropOrder?: number;
}

const GAP = '  ';
// biome-ignore lint/suspicious/noMisleadingCharacterClass: combining marks are matched one by one, on purpose
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200d\ufe0f]/u;
/** East Asian Wide and Fullwidth ranges, and the emoji blocks: two terminal cells each. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** How many terminal cells `s` takes. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) w += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return w;
}

/** `s` cut to at most `width` cells, ending in `…` when cut. */
function cut(s: string, width: number): string {
  if (displayWidth(s) <= width) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = displayWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

const pad = (s: string, width: number, right: boolean) => {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(s)));
  return right ? fill + s : s + fill;
};

/**
 * The table as lines of text: a header, a rule, one line per row. `width`: the terminal's columns, or undefined for
 * a pipe or a file (nothing is cut there).
 */
export function formatTable<R>(rows: readonly R[], columns: readonly Column<R>[], width?: number): string {
  let cols = columns.map((c) => {
    const cells = rows.map((r) => terminalText(String(c.value(r) ?? '')));
    return { ...c, cells, width: Math.max(displayWidth(c.header), ...cells.map(displayWidth)) };
  });
  const total = () => cols.reduce((n, c) => n + c.width, 0) + GAP.length * (cols.length - 1);
  const floor = (c: (typeof cols)[number]) =>
    c.shrinkTo === undefined ? c.width : Math.min(c.width, Math.max(c.shrinkTo, displayWidth(c.header)));
  const narrowest = () => cols.reduce((n, c) => n + floor(c), 0) + GAP.length * (cols.length - 1);
  if (width === undefined) return render(cols, rows.length);
  // Columns are left out only while the rest cannot fit even cut; then the text columns are cut, widest first.
  while (narrowest() > width && cols.some((c) => c.dropOrder !== undefined)) {
    const first = cols.reduce((a, b) => ((b.dropOrder ?? -1) > (a.dropOrder ?? -1) ? b : a));
    cols = cols.filter((c) => c !== first);
  }
  for (let excess = total() - width; excess > 0; excess = total() - width) {
    const shrinkable = cols.filter((c) => c.width > floor(c));
    if (!shrinkable.length) break; // as narrow as it goes: the terminal wraps the rest
    const widest = shrinkable.reduce((a, b) => (b.width > a.width ? b : a));
    const next = Math.max(0, ...shrinkable.filter((c) => c !== widest).map((c) => c.width));
    widest.width = Math.max(floor(widest), widest.width - excess, Math.min(next, widest.width - 1));
  }
  return render(cols, rows.length);
}

interface Laid {
  header: string;
  align?: 'right';
  cells: string[];
  width: number;
}

function render(cols: Laid[], rows: number): string {
  const line = (cells: string[]) =>
    cols
      .map((c, i) => pad(cut(cells[i], c.width), c.width, c.align === 'right'))
      .join(GAP)
      .trimEnd();
  return [
    line(cols.map((c) => c.header)),
    cols.map((c) => '─'.repeat(c.width)).join(GAP),
    ...Array.from({ length: rows }, (_, r) => line(cols.map((c) => c.cells[r]))),
  ].join('\n');
}

/** The width to fit a table to: the terminal's, `COLUMNS` when set (a pager, a test), else none (a pipe, a file). */
export function outputWidth(stream: NodeJS.WriteStream = process.stdout): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return stream.isTTY && stream.columns ? stream.columns : undefined;
}
