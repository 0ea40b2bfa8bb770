// CSV text as every CSV response has it: a header row, then one record per row; a field holding a comma, a quote or
// a line break is quoted with its quotes doubled (RFC 4180); every record ends with `\n`; null and undefined are
// empty, booleans `true`/`false`, objects their JSON. d3-dsv formats it: byte-identical to csv-stringify's output and
// about 3× faster, with a third of the garbage, on a storm county's 60,000 incidents (issue #12).
import { csvFormatRows } from 'd3-dsv';

const cell = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

export function csvText(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const body = rows.map((r) => (r.some((v) => v !== null && typeof v === 'object') ? r.map(cell) : r));
  return `${csvFormatRows([columns as string[], ...(body as string[][])])}\n`;
}
