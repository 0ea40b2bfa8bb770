// CSV text as every CSV response has it: a header row, then one record per row; a field holding a comma, a quote or
// a line break is quoted with its quotes doubled (RFC 4180); every record ends with `\n`; null and undefined are
// empty, booleans `true`/`false`, objects their JSON. d3-dsv formats it: byte-identical to csv-stringify's output and
// about 3× faster, with a third of the garbage, on a storm county's 60,000 incidents (issue #12).
// Formula injection (issue 24 part 4, OWASP "CSV Injection"): a text cell starting with `=`, `+`, `-`, `@`, tab or
// carriage return is prefixed with `'`, so a spreadsheet shows upstream text (`=HYPERLINK(…)` as a municipality name)
// instead of evaluating it. Numbers are numbers, never text: a count column's -3 stays -3.
import { csvFormatRows } from 'd3-dsv';

const FORMULA_START = /^[=+\-@\t\r]/;

/** What every CSV answer guarantees (the OpenAPI document and docs/data-notice.md say it). */
export const CSV_NOTE =
  "CSV (RFC 4180), header row first. Text cells starting with `=`, `+`, `-`, `@`, tab or carriage return are prefixed with `'` so a spreadsheet shows them as text instead of evaluating a formula (OWASP CSV injection); numeric cells are never prefixed (a count or a longitude of -3 stays -3).";

/** A cell as written: objects as JSON, formula-like text defused, everything else as is. */
function cell(v: unknown): unknown {
  if (typeof v === 'string') return FORMULA_START.test(v) ? `'${v}` : v;
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}
/** Rows without such a cell (nearly all) are passed as they are: no copy per row of a 60,000-incident answer. */
const needsCell = (v: unknown): boolean =>
  typeof v === 'string' ? FORMULA_START.test(v) : v !== null && typeof v === 'object';

export function csvText(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const body = rows.map((r) => (r.some(needsCell) ? r.map(cell) : r));
  return `${csvFormatRows([columns as string[], ...(body as string[][])])}\n`;
}
