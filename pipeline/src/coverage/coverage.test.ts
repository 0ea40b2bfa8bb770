// Coverage checked against figures worked out by hand over a small hand-made registry and customer table, and the
// committed tables checked against their sources in ../shared/data.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { computeCoverage, type CoverageRegistry } from './coverage.ts';
import { COVERAGE_CSV_COLUMNS, coverageCsvRows, coverageFor, coverageOf, coverageRegistry } from './document.ts';
import { CUSTOMERS_FILE, loadCustomerTable, loadOdinSample, type CustomerRow } from './tables.ts';
import { formatCoverage } from '../cli/coverage.ts';
import { loadEiaReference } from '../registry/eia-reference.ts';
import { odinRecords } from '../sources/odin/schema.ts';
import { hasSharedData, sharedJson } from '../../test/shared-data.ts';

const active = (id: string, connector: string, eia_ids: string[], states: string[], options = {}) => ({
  id,
  connector: connector as never,
  eia_ids,
  states,
  options,
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
  // gated-co only wants its credential; with it, its feed covers utility 3 in NC (not in SC, where 3 has none)
  credentialed: [active('gated-co', 'duke', ['3'], ['NC', 'SC'], { credential_env: 'GATED_CO_KEY' })],
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
  const withCredentials = (scope: string) =>
    (scope === 'US' ? c.national : c.states.find((x) => x.scope === scope))?.customers_own_feed_with_credentials;
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
  it('counts the credentialed rows in the own-feed figure with credentials only', () => {
    // NC: own 1100 + Gated Co's 500 once its credential is set; the other states have no credentialed utility
    expect(withCredentials('NC')).toBe(1600);
    expect(withCredentials('SC')).toBe(400);
    expect(withCredentials('TX')).toBe(600);
    expect(withCredentials('DC')).toBe(300);
    expect(withCredentials('PR')).toBe(0);
    expect(withCredentials('US')).toBe(1100 + 500 + 400 + 600 + 300);
    // without it nothing changes: Gated Co stays not covered, and listed as gated
    expect(figures('NC')).toEqual([1650, 1100, 0, 550]);
    const none = computeCoverage({ ...REGISTRY, credentialed: [] }, TABLE, ODIN);
    expect(none.national.customers_own_feed_with_credentials).toBe(none.national.customers_own_feed);
  });
  it("never counts more customers with credentials than the state has (a negative EIA adjustment, as Hawaii's)", () => {
    const islands = computeCoverage(
      {
        sources: [active('kauai', 'nisc', ['1'], ['HI'])],
        inactive: [{ id: 'oahu', status: 'gated', status_reason: 'needs a token', eia_ids: ['2'] }],
        credentialed: [active('oahu', 'heco', ['2'], ['HI'], { credential_env: 'OAHU_KEY' })],
      },
      [row(1, 'Kauai Coop', 'HI', 100), row(2, 'Oahu Electric', 'HI', 300), row(99999, 'Adjustment 2018', 'HI', -50)],
      [],
    );
    // HI: 100 + 300 − 50 = 350; own 100; with the token 100 + 300 = 400 > 350: all 350 are covered
    const hi = islands.states.find((s) => s.scope === 'HI');
    expect(hi && [hi.customers, hi.customers_own_feed, hi.customers_own_feed_with_credentials]).toEqual([
      350, 100, 350,
    ]);
    expect(islands.national.customers_own_feed_with_credentials).toBe(350);
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
    // with credentials: 2900 / 3565 → 81.35 %
    expect(doc.national).toMatchObject({
      scope: 'US',
      customers: 3565,
      customers_own_feed_with_credentials: 2900,
      pct_own_feed_with_credentials: 81.35,
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
    expect(doc.credentials).toEqual({ env: ['GATED_CO_KEY'], sources: ['gated-co'] });
    const rows = coverageCsvRows(doc, '2026-01-01T00:00:00Z');
    expect(rows.map((r) => r[0])).toEqual(['US', 'DC', 'NC', 'PR', 'SC', 'TX']);
    expect(Object.fromEntries(COVERAGE_CSV_COLUMNS.map((k, i) => [k, rows[0][i]]))).toMatchObject({
      customers: 3565,
      customers_own_feed: 2400,
      pct_own_feed: 67.32,
      customers_own_feed_with_credentials: 2900,
      pct_own_feed_with_credentials: 81.35,
      largest_uncovered_eia_id: 3,
      largest_uncovered_reason: 'gated',
      generated_at: '2026-01-01T00:00:00Z',
    });
    const text = formatCoverage(doc, 3);
    expect(text).toMatch(/^scope +customers +own feed +\+ credentials +ODIN only +covered +not covered +share$/m);
    expect(text).toMatch(/^US +3,565 +67\.32 % +81\.35 % +1\.40 % +68\.72 % +1,115 +31\.28 %$/m);
    expect(text).toMatch(/\+ credentials counts 1 gated row\(s\) as polled: gated-co \(set GATED_CO_KEY\)\./);
    expect(text).toMatch(/^PR\* +80 /m);
    expect(text).toMatch(/^ +3 +Gated Co +NC +500 +gated +gated-co$/m);
  });
});

describe('coverage of the shipped registry', () => {
  const SHIPPED = new URL('../../../data/sources.csv', import.meta.url).pathname;
  afterEach(() => {
    delete process.env.OUTAGE_CREDENTIAL_DUKE;
  });
  it('counts, per state and for the nation, own feeds without credentials and with every credential named', () => {
    // an independent reading of data/sources.csv: its own CSV parse and a plain loop over the committed table
    const rows = parse(readFileSync(SHIPPED), { columns: true }) as Array<Record<string, string>>;
    const keysOf = (list: Array<Record<string, string>>) =>
      new Set(
        list
          .filter((r) => r.connector !== 'odin')
          .flatMap((r) => r.eia_id.split(';').flatMap((id) => r.state.split(';').map((st) => `${Number(id)}|${st}`))),
      );
    const names = (r: Record<string, string>) => (r.options ? JSON.parse(r.options).credential_env : undefined);
    const free = keysOf(rows.filter((r) => r.status === 'active'));
    const keyed = rows.filter((r) => r.status === 'gated' && typeof names(r) === 'string');
    const all = keysOf(rows.filter((r) => r.status === 'active').concat(keyed));
    const table = loadCustomerTable();
    const us = (st: string) => !['PR', 'VI', 'GU', 'MP', 'AS'].includes(st);
    const sum = (keys: Set<string>, inScope: (st: string) => boolean) =>
      table
        .filter((r) => inScope(r.state) && keys.has(`${r.utility_number}|${r.state}`))
        .reduce((n, r) => n + r.customers, 0);
    const doc = coverageFor(SHIPPED);
    expect(sum(free, us)).toBeGreaterThan(100_000_000);
    expect(keyed.length).toBeGreaterThan(0);
    expect(doc.national.customers_own_feed).toBe(sum(free, us));
    let nationWithCredentials = 0;
    for (const st of doc.states) {
      const only = (x: string) => x === st.scope;
      // EIA's state total, adjustment rows included; where a negative adjustment puts it below the customers its own
      // feeds cover (DC), those are the total, and no figure counts more customers than the total (HI with credentials)
      const total = Math.max(sum(new Set(table.map((r) => `${r.utility_number}|${r.state}`)), only), sum(free, only));
      expect(st.customers, st.scope).toBe(total);
      expect(st.customers_own_feed, st.scope).toBe(sum(free, only));
      expect(st.customers_own_feed_with_credentials, st.scope).toBe(Math.min(sum(all, only), total));
      if (us(st.scope)) nationWithCredentials += Math.min(sum(all, only), total);
    }
    expect(doc.national.customers_own_feed_with_credentials).toBe(nationWithCredentials);
    expect(doc.national.customers_own_feed_with_credentials).toBeGreaterThan(doc.national.customers_own_feed);
    expect(doc.credentials.sources).toEqual(keyed.map((r) => r.id).sort());
    expect(doc.credentials.env).toEqual([...new Set(keyed.map(names))].sort());
    expect(
      doc.national.customers_own_feed + doc.national.customers_odin_only + doc.national.customers_not_covered,
    ).toBe(doc.national.customers);
    expect(doc.states.filter((s) => !s.territory)).toHaveLength(51);
  });
  it('does not count a gated row as covered without credentials, whatever the environment holds', () => {
    const before = coverageFor(SHIPPED);
    process.env.OUTAGE_CREDENTIAL_DUKE = 'set-in-this-environment';
    const registry = coverageRegistry(SHIPPED);
    expect(registry.sources.some((s) => s.id === 'duke-florida')).toBe(false);
    expect(registry.credentialed?.some((s) => s.id === 'duke-florida')).toBe(true);
    expect(coverageFor(SHIPPED).national).toEqual(before.national);
  });
  it("the committed customer table holds EIA-861 2018's customers per utility × state (as the registry's reference)", () => {
    const ref = loadEiaReference();
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
  }, 60_000);
  it.skipIf(!hasSharedData)('the committed ODIN table lists the utilities of the recorded capture', () => {
    const ids = new Set(
      odinRecords(sharedJson('payloads/odin/odin-records-sample.json')).map((r) => String(r.utility_id)),
    );
    expect(ids.size).toBe(20);
    expect(new Set(loadOdinSample())).toEqual(ids);
  });
});
