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

describe('csvText against formula injection (issue 24)', () => {
  const cols = ['name', 'customers_out', 'cause'];
  const before = (rows: unknown[][]) => stringify(rows, { header: true, columns: cols });
  it("prefixes text starting with =, +, -, @, tab or CR with ', and leaves numbers as numbers", () => {
    const rows: unknown[][] = [
      ['=HYPERLINK("https://evil.example","click")', -3, "+cmd|' /C calc'!A0"],
      ['@SUM(1+1)', 12, '-2+3'],
      ['\tindent', 0, '\rreturn'],
      ['Raleigh = capital', -0.5, 'a-b'],
    ];
    expect(csvText(cols, rows)).toBe(
      [
        'name,customers_out,cause',
        `"'=HYPERLINK(""https://evil.example"",""click"")",-3,'+cmd|' /C calc'!A0`,
        "'@SUM(1+1),12,'-2+3",
        '\'\tindent,0,"\'\rreturn"',
        'Raleigh = capital,-0.5,a-b',
        '',
      ].join('\n'),
    );
  });
  it('writes the same bytes as before for every row without such a cell', () => {
    const rows: unknown[][] = [
      ['Wake', 12, null],
      ['Durham, NC', 0, ['a', '=b']],
    ];
    expect(csvText(cols, rows)).toBe(before(rows));
  });
});
