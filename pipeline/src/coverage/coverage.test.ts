// Coverage checked against figures worked out by hand over a small hand-made registry and customer table, and the
// committed tables checked against their sources in ../shared/data.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { computeCoverage, type CoverageRegistry } from './coverage.ts';
import { COVERAGE_CSV_COLUMNS, coverageCsvRows, coverageFor, coverageOf } from './document.ts';
import { CUSTOMERS_FILE, loadCustomerTable, loadOdinSample, type CustomerRow } from './tables.ts';
import { formatCoverage } from '../cli/coverage.ts';
import { loadEiaReference } from '../sources/eia-reference.ts';
import { odinRecords } from '../sources/odin/schema.ts';
import { hasSharedData, sharedJson, sharedPath } from '../../test/shared-data.ts';

const active = (id: string, connector: string, eia_ids: string[], states: string[]) => ({
  id,
  connector: connector as never,
  eia_ids,
  states,
  options: {},
});
const REGISTRY: CoverageRegistry = {
  sources: [
    active('big', 'kubra', ['1'], ['NC', 'SC']),
    active('coop', 'nisc', ['0002'], ['NC']),
    active('partial', 'arcgis', ['8'], ['TX']), // utility 8 also serves NC, which its feed does not cover
    active('capital', 'kubra', ['10'], ['DC']),
    active('odin', 'odin', [], ['NC', 'SC', 'TX']),
  ],
  inactive: [
    { id: 'gated-co', status: 'gated', status_reason: 'needs credentials', eia_ids: ['3'] },
    { id: 'unwired', status: 'disabled', status_reason: 'not yet wired: no connector for x', eia_ids: ['4'] },
    { id: 'parked', status: 'disabled', status_reason: 'parked by the peer', eia_ids: ['9'] },
  ],
};
const row = (utility_number: number, utility_name: string, state: string, customers: number): CustomerRow => ({
  utility_number,
  utility_name,
  state,
  customers,
  customers_source: 'hand-made',
});
const TABLE = [
  row(1, 'Big IOU', 'NC', 1000),
  row(1, 'Big IOU', 'SC', 400),
  row(2, 'Coop A', 'NC', 100),
  row(3, 'Gated Co', 'NC', 500),
  row(4, 'Unwired Muni', 'SC', 200),
  row(5, 'ODIN Coop', 'SC', 50),
  row(6, 'Nobody Electric', 'TX', 300),
  row(7, 'Territory Power', 'PR', 80),
  row(8, 'Partial IOU', 'TX', 600),
  row(8, 'Partial IOU', 'NC', 30),
  row(9, 'Parked Power', 'TX', 70),
  row(10, 'Capital Power', 'DC', 300),
  row(99999, 'Adjustment 2018', 'NC', 20),
  row(99999, 'Adjustment 2018', 'SC', -10),
  row(99999, 'Adjustment 2018', 'TX', 5),
  row(99999, 'Adjustment 2018', 'DC', -5),
];
// ODIN reports 2 (has its own feed), 5, 7 (only in PR, where no ODIN row reads) and 8 (has a deep row: dropped everywhere)
const ODIN = ['2', '05', '7', '8'];

describe('coverage, against a computation by hand', () => {
  const c = computeCoverage(REGISTRY, TABLE, ODIN);
  const figures = (scope: string) => {
    const s = scope === 'US' ? c.national : c.states.find((x) => x.scope === scope);
    return s && [s.customers, s.customers_own_feed, s.customers_odin_only, s.customers_not_covered];
  };
  it("splits each state's customers into own feed, ODIN only and not covered", () => {
    // NC: 1000 + 100 + 500 + 30 + 20 = 1650; own 1 and 2 = 1100; 8 has a deep row (TX), so ODIN drops it: 500 + 30 + 20 not covered
    expect(figures('NC')).toEqual([1650, 1100, 0, 550]);
    // SC: 400 + 200 + 50 − 10 = 640; own 400; ODIN 5 = 50; not covered 200 − 10
    expect(figures('SC')).toEqual([640, 400, 50, 190]);
    // TX: 300 + 600 + 70 + 5 = 975; own 8 = 600; 6 and 9 are not ODIN's: 375
    expect(figures('TX')).toEqual([975, 600, 0, 375]);
    // DC: EIA's −5 would put the total below its one covered utility: the covered 300 are the total
    expect(figures('DC')).toEqual([300, 300, 0, 0]);
    // PR: ODIN reports 7, but no ODIN row covers PR
    expect(figures('PR')).toEqual([80, 0, 0, 80]);
    // US: the 50 states and DC, not PR
    expect(figures('US')).toEqual([1650 + 640 + 975 + 300, 1100 + 400 + 600 + 300, 50, 550 + 190 + 375]);
  });
  it('lists the largest utilities not covered with the reason, adjustments left out', () => {
    expect(c.national.uncovered.map((u) => [u.eia_id, u.customers, u.states, u.reason, u.source_id])).toEqual([
      [3, 500, ['NC'], 'gated', 'gated-co'],
      [6, 300, ['TX'], 'no_public_feed', null],
      [4, 200, ['SC'], 'not_yet_wired', 'unwired'],
      [9, 70, ['TX'], 'disabled', 'parked'],
      [8, 30, ['NC'], 'state_not_in_feed', 'partial'],
    ]);
    expect(c.states.find((s) => s.scope === 'PR')?.uncovered.map((u) => u.eia_id)).toEqual([7]);
    expect(
      computeCoverage(REGISTRY, TABLE, ODIN, { national: 2, state: 1 }).national.uncovered.map((u) => u.eia_id),
    ).toEqual([3, 6]);
  });
  it("gives percentages of each scope's customers (2 decimals) in the document and the CSV", () => {
    const doc = coverageOf(REGISTRY, TABLE, ODIN, { simulated: false, registry: 'hand-made.csv' });
    // US: 3565 customers; own 2400 → 67.32 %, ODIN 50 → 1.40 %, covered 2450 → 68.72 %, not covered 1115 → 31.28 %
    expect(doc.national).toMatchObject({
      scope: 'US',
      customers: 3565,
      pct_own_feed: 67.32,
      pct_odin_only: 1.4,
      pct_covered: 68.72,
      pct_not_covered: 31.28,
      territory: false,
    });
    // SC: 400 / 640 = 62.5 %, 50 / 640 = 7.8125 %, 450 / 640 = 70.3125 %, 190 / 640 = 29.6875 %
    expect(doc.states.find((s) => s.scope === 'SC')).toMatchObject({
      name: 'South Carolina',
      pct_own_feed: 62.5,
      pct_odin_only: 7.81,
      pct_covered: 70.31,
      pct_not_covered: 29.69,
    });
    expect(doc.states.find((s) => s.scope === 'PR')?.territory).toBe(true);
    expect(doc.odin_estimate.utilities).toBe(4);
    const rows = coverageCsvRows(doc, '2026-01-01T00:00:00Z');
    expect(rows.map((r) => r[0])).toEqual(['US', 'DC', 'NC', 'PR', 'SC', 'TX']);
    expect(Object.fromEntries(COVERAGE_CSV_COLUMNS.map((k, i) => [k, rows[0][i]]))).toMatchObject({
      customers: 3565,
      customers_own_feed: 2400,
      largest_uncovered_eia_id: 3,
      largest_uncovered_reason: 'gated',
      generated_at: '2026-01-01T00:00:00Z',
    });
    const text = formatCoverage(doc, 3);
    expect(text).toMatch(/^US +3,565 +67\.32 % +1\.40 % +68\.72 % +1,115 +31\.28 %$/m);
    expect(text).toMatch(/^PR\* +80 /m);
    expect(text).toMatch(/^ +3 +Gated Co +NC +500 +gated +gated-co$/m);
  });
});

describe('coverage of the shipped registry', () => {
  it("counts, for the nation, the customers of every active deep row's utilities in its states", () => {
    // an independent reading of data/sources.csv: its own CSV parse and a plain loop over the committed table
    const rows = parse(readFileSync(new URL('../../../data/sources.csv', import.meta.url)), { columns: true }) as Array<
      Record<string, string>
    >;
    const keys = new Set(
      rows
        .filter((r) => r.status === 'active' && r.connector !== 'odin')
        .flatMap((r) => r.eia_id.split(';').flatMap((id) => r.state.split(';').map((st) => `${Number(id)}|${st}`))),
    );
    const table = loadCustomerTable();
    const us = (st: string) => !['PR', 'VI', 'GU', 'MP', 'AS'].includes(st);
    const expected = table
      .filter((r) => us(r.state) && keys.has(`${r.utility_number}|${r.state}`))
      .reduce((s, r) => s + r.customers, 0);
    expect(expected).toBeGreaterThan(100_000_000);
    const doc = coverageFor(new URL('../../../data/sources.csv', import.meta.url).pathname);
    expect(doc.national.customers_own_feed).toBe(expected);
    expect(
      doc.national.customers_own_feed + doc.national.customers_odin_only + doc.national.customers_not_covered,
    ).toBe(doc.national.customers);
    expect(doc.states.filter((s) => !s.territory)).toHaveLength(51);
  });
  it.skipIf(!hasSharedData)(
    "the committed customer table holds EIA-861 2018's customers per utility × state",
    () => {
      const ref = loadEiaReference(sharedPath('reference/eia861'));
      expect(ref).not.toBeNull();
      const table = new Map(loadCustomerTable(CUSTOMERS_FILE).map((r) => [`${r.utility_number}|${r.state}`, r]));
      let compared = 0;
      for (const u of ref!.utilities.values()) {
        for (const [st, n] of u.customers) {
          if (n === 0) continue;
          expect(table.get(`${u.utility_number}|${st}`)?.customers, `${u.utility_name} ${st}`).toBe(n);
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(1900);
      // the five ERCOT wires companies file no Sales_Ult_Cust rows: Reliability gives theirs
      expect(
        [...table.values()]
          .filter((r) => r.customers_source === 'Reliability')
          .map((r) => r.utility_number)
          .sort((a, b) => a - b),
      ).toEqual([3278, 8901, 20404, 40051, 44372]);
    },
    60_000,
  );
  it.skipIf(!hasSharedData)('the committed ODIN table lists the utilities of the recorded capture', () => {
    const ids = new Set(
      odinRecords(sharedJson('payloads/odin/odin-records-sample.json')).map((r) => String(r.utility_id)),
    );
    expect(ids.size).toBe(20);
    expect(new Set(loadOdinSample())).toEqual(ids);
  });
});
