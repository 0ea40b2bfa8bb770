// csvText writes what csv-stringify (the CSV writer before it, still the scripts' one) wrote, byte for byte.
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { csvText } from './csv.ts';

const COLUMNS = ['id', 'name', 'n', 'x', 'flag', 'path', 'note'];
const reference = (rows: unknown[][]) =>
  stringify(rows, { header: true, columns: COLUMNS, cast: { boolean: (b) => String(b) } });

describe('csvText', () => {
  it('quotes, escapes and casts exactly as csv-stringify did', () => {
    const rows: unknown[][] = [
      ['a', 'Duke Energy, Carolinas', 12, 35.123456789012344, true, ['NC', 'Wake County'], 'plain'],
      ['b', 'Crew "assigned"', 0, -0.5, false, [], 'line\nbreak'],
      ['c', 'carriage\rreturn', null, undefined, null, { k: 'v, "w"' }, ''],
      ['d', 'Ünïcode ☃', 1e21, 1e-7, true, null, ' leading and trailing '],
    ];
    expect(csvText(COLUMNS, rows)).toBe(reference(rows));
  });

  it('writes the header alone, newline-terminated, when there are no rows', () => {
    expect(csvText(COLUMNS, [])).toBe(reference([]));
    expect(csvText(COLUMNS, [])).toBe(`${COLUMNS.join(',')}\n`);
  });
});
