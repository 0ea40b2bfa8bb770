// snapshot-table.ts: state and national sums, unmatched reasons, and the readable table, which shows upstream text
// with its escape sequences made visible, even for a snapshot that never went through the quarantine step (issue 24).
import { describe, expect, it } from 'vitest';
import { formatSnapshotTable, snapshotReport, unmatchedReason } from './snapshot-table.ts';
import { emptySnapshot, type Snapshot } from './snapshot.ts';
import { sourceDef } from '../../test/shared-data.ts';

const source = sourceDef({ id: 'we', utility: 'We Energies', connector: 'wec', states: ['WI', 'MI'] });
const snap = (): Snapshot => ({
  ...emptySnapshot('We Energies'),
  basis: 'county',
  customers_out: 1_250,
  notice: 'Counts are estimates.',
  counties: [
    { fips: '26053', customers_out: 0, customers_served: 8_000 }, // Gogebic, MI
    { fips: '55079', customers_out: 1_000, customers_served: 480_000 }, // Milwaukee, WI
    { fips: '26003', customers_out: 40, customers_served: null }, // Alger, MI
    { fips: '55059', customers_out: 200, customers_served: 80_000 }, // Kenosha, WI
  ],
  unmatched: [
    'pleasant pr',
    'Iron (MI)',
    'Flint EMC (unreadable count)',
    '3 slice(s) not placed in a county (10 customers out)',
    'outage 77 at 44.1,-87.6',
  ],
});

describe('snapshotReport', () => {
  it('sums counties per state (most out first) and nationally; served stays null only where no county has it', () => {
    const r = snapshotReport(source, snap());
    expect(r.states).toEqual([
      {
        state: 'WI',
        fips: '55',
        name: 'Wisconsin',
        customers_out: 1_200,
        customers_served: 560_000,
        counties: 2,
        counties_out: 2,
      },
      {
        state: 'MI',
        fips: '26',
        name: 'Michigan',
        customers_out: 40,
        customers_served: 8_000,
        counties: 2,
        counties_out: 1,
      },
    ]);
    expect(r.national).toEqual({ customers_out: 1_240, customers_served: 568_000, counties_out: 3, states_out: 2 });
    expect(r.snapshot).toEqual(snap()); // the snapshot itself, untouched
    expect(r.source).toEqual({ id: 'we', utility: 'We Energies', connector: 'wec', states: ['WI', 'MI'] });
    expect(snapshotReport(source, emptySnapshot('x')).national).toEqual({
      customers_out: 0,
      customers_served: null,
      counties_out: 0,
      states_out: 0,
    });
  });
});

describe('unmatchedReason', () => {
  it.each([
    ['pleasant pr', 'pleasant pr', 'no county of that name in WI;MI'],
    ['Iron (MI)', 'Iron', 'no county of that name in MI'],
    ['Flint EMC (unreadable count)', 'Flint EMC', 'unreadable count'],
    [
      '3 slice(s) not placed in a county (10 customers out)',
      '-',
      '3 slice(s) not placed in a county (10 customers out)',
    ],
    ['outage 77 at 44.1,-87.6', 'outage 77', 'its point 44.1,-87.6 is in no county'],
    ['incident 12 outside every county', 'incident 12', 'outside every county'],
  ])('%s', (entry, name, reason) => {
    expect(unmatchedReason(entry, ['WI', 'MI'])).toEqual({ name, reason });
  });
});

describe('formatSnapshotTable', () => {
  it('lists counties by customers out with FIPS, atlas name and state, then state totals, unmatched with reasons, the notice', () => {
    const text = formatSnapshotTable(snapshotReport(source, snap()));
    const lines = text.split('\n');
    expect(lines[0]).toBe('We Energies (wec, we) · basis county · unit customers · states WI;MI');
    expect(lines[1]).toBe(
      'customers_out 1,240 in 3 counties (feed headline 1,250) · customers_served - · 4 counties, 0 areas, 0 incidents',
    );
    const rows = lines.filter((l) => /^\d{5} /.test(l)).map((l) => l.split(/\s{2,}/));
    expect(rows.map((r) => r.slice(0, 5))).toEqual([
      ['55079', 'Milwaukee', 'WI', '1,000', '480,000'],
      ['55059', 'Kenosha', 'WI', '200', '80,000'],
      ['26003', 'Alger', 'MI', '40', '-'],
      ['26053', 'Gogebic', 'MI', '0', '8,000'],
    ]);
    expect(text).toMatch(/^all\s+1,240\s+568,000\s+3 \/ 4$/m);
    expect(text).toMatch(/^ {2}Iron\s+no county of that name in MI$/m);
    expect(text).toContain('unmatched (5):');
    expect(lines.at(-2)).toBe('notice: Counts are estimates.');
  });
});

describe('formatSnapshotTable over hostile text (issue 24)', () => {
  it('prints no control character or override of upstream text, and pads what it shows', () => {
    const s = emptySnapshot('Evil\u001b]0;pwned\u0007 Power');
    s.counties = [{ fips: '12086', customers_out: 10, customers_served: 1000 }];
    s.unmatched = ['Nowhere\u001b[2J\u202e (FL)', 'Elsewhere (FL)'];
    s.notice = 'Storm\r\nupdate \u009b31m';
    const text = formatSnapshotTable(snapshotReport(sourceDef(), s));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(text).toMatch(/^Evil\\u001b\]0;pwned\\u0007 Power \(fpl, test\)/);
    expect(text).toContain('notice: Storm update \\u009b31m');
    const rows = text.split('\n').filter((l) => /^ {2}(Nowhere|Elsewhere)/.test(l));
    expect(rows).toHaveLength(2);
    expect(rows[0].indexOf('no county')).toBe(rows[1].indexOf('no county'));
  });
});
