import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { checkRegistry } from './check.ts';
import { REGISTRY_COLUMNS, type CheckProblem } from './findings.ts';
import type { CheckOptions, FixtureParser } from './fixtures.ts';
import { EIA_FILES, loadEiaReference, type EiaReference, type EiaUtility } from './eia-reference.ts';
import { fromRoot } from '../package-root.ts';
import { referenceRows } from '../../../scripts/build-eia-reference.ts';
import { SHARED_DATA, hasSharedData, sharedPath } from '../../test/shared-data.ts';

const COLUMNS: readonly string[] = REGISTRY_COLUMNS;
type Row = Record<string, string | number>;
const KIUC: Row = {
  id: 'kiuc',
  utility: 'Kauai Island Utility Cooperative',
  state: 'HI',
  connector: 'nisc',
  url: 'https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json',
  interval_min: 15,
  tier: 3,
  options: '',
  customers: 36000,
  eia_id: '10071',
  platform: 'nisc',
  customers_source: 'EIA-861 2018',
  map_page: 'https://www.kiuc.coop/outage-map',
  provenance: 'hand-made test row',
  status: 'active',
  status_reason: '',
  fixture: 'nisc/summary.json',
  evidence: 'none', // the fixture is hand-made
};
const DUKE: Row = {
  ...KIUC,
  id: 'duke-carolinas',
  utility: 'Duke Energy Carolinas',
  state: 'NC;SC',
  connector: 'kubra',
  eia_id: '5416',
  customers: 2600000,
  tier: 1,
  interval_min: 5,
  fixture: '',
  url: 'https://kubra.io/stormcenter/api/v1/stormcenters/9c0735d8-b721-4dce-b80b-558e98ce1083/views/9b2feb80-69f8-4035-925e-f2acbcf1728e/currentState?preview=false',
  status: 'gated',
  status_reason: 'fixture not recorded yet',
};
const ODIN: Row = {
  ...KIUC,
  id: 'odin-us',
  utility: 'ORNL ODIN (meters)',
  state: 'OH',
  connector: 'odin',
  eia_id: '',
  customers: '',
  fixture: '',
  status: 'gated',
  status_reason: 'baseline wired separately',
  url: 'https://ornl.opendatasoft.com/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json',
};

/** Two comment lines, the header on line 3, then one row per line: row i is on line 4 + i. */
const registry = (rows: Row[], columns = COLUMNS) =>
  `# test registry\n# second comment\n${stringify([columns, ...rows.map((r) => columns.map((c) => r[c] ?? ''))]).trimEnd()}\n`;

const utility = (n: number, name: string, customers: Record<string, number>, counties: string[]): EiaUtility => ({
  utility_number: n,
  utility_name: name,
  states: new Set(Object.keys(customers)),
  customers: new Map(Object.entries(customers)),
  counties: new Set(counties),
});
const EIA: EiaReference = {
  year: 2018,
  files: { customers: 'hand-made', territory: 'hand-made' },
  utilities: new Map([
    [10071, utility(10071, 'Kauai Island Utility Cooperative', { HI: 33000 }, ['15007'])],
    [5416, utility(5416, 'Duke Energy Carolinas, LLC', { NC: 2005333, SC: 591113 }, ['37119', '45045'])],
  ]),
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'registry-check-'));
  mkdirSync(path.join(root, 'nisc'));
  mkdirSync(path.join(root, 'probe'));
  // Hand-made in the NISC summary.json shape: proves the fixture step parses, nothing more.
  writeFileSync(
    path.join(root, 'nisc/summary.json'),
    JSON.stringify({
      totalServed: 36000,
      outages: [],
      regionDataSets: [{ id: 'omscounty', regions: [{ id: 'Kauai', numberOut: 4, numberServed: 36000 }] }],
    }),
  );
  writeFileSync(path.join(root, 'nisc/broken.json'), '{"totalServed": ');
  writeFileSync(path.join(root, 'nisc/wrong-shape.json'), JSON.stringify({ regionDataSets: 'not a list' }));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const check = (rows: Row[], over: Partial<CheckOptions> = {}, columns = COLUMNS): CheckProblem[] =>
  checkRegistry(registry(rows, columns), { eia: EIA, fixtureRoot: root, ...over }).problems;
const on = (problems: CheckProblem[], line: number, column?: string) =>
  problems.filter((p) => p.line === line && (!column || p.column === column));

describe('sources check', () => {
  it('finds nothing wrong in a well-formed registry', () => {
    const report = checkRegistry(registry([KIUC, DUKE, ODIN]), { eia: EIA, fixtureRoot: root });
    expect(report.problems).toEqual([]);
    expect(report.rows).toBe(3);
    expect(report.by_status).toEqual({ active: 1, gated: 2 });
  });

  it('wants a row that yields to a credential to name one that a row of the same utility needs', () => {
    const gated = { ...DUKE, options: JSON.stringify({ credential_env: 'OUTAGE_CREDENTIAL_DUKE' }) };
    const yields = (name: unknown, eia = '5416') => ({
      ...KIUC,
      id: 'kiuc-public',
      eia_id: eia,
      options: JSON.stringify({ yields_to_credential: name }),
    });
    const options = (rows: Row[]) => check(rows).filter((p) => p.column === 'options');
    expect(
      options([KIUC, gated, { ...yields('OUTAGE_CREDENTIAL_DUKE'), status: 'disabled', status_reason: 'x' }]),
    ).toEqual([]);
    for (const bad of [yields('OUTAGE_CREDENTIAL_OTHER'), yields(5), yields('OUTAGE_CREDENTIAL_DUKE', '10071')])
      expect(options([gated, { ...bad, status: 'disabled', status_reason: 'x' }]), String(bad.options)).toEqual([
        expect.objectContaining({
          severity: 'error',
          id: 'kiuc-public',
          message: expect.stringMatching(/names no row of the same utility/),
        }),
      ]);
  });

  it('reports a missing required column on the header line and checks no row', () => {
    const problems = check(
      [KIUC],
      {},
      COLUMNS.filter((c) => c !== 'url'),
    );
    expect(problems).toEqual([
      {
        line: 3,
        severity: 'error',
        id: null,
        column: 'url',
        message: 'required column `url` is missing from the header',
      },
    ]);
  });

  it('requires the shipped columns only of a shipped registry', () => {
    const cols = COLUMNS.filter((c) => c !== 'fixture' && c !== 'status');
    const shipped = check([KIUC], {}, cols);
    expect(
      on(shipped, 3)
        .map((p) => p.column)
        .sort(),
    ).toEqual(['fixture', 'status']);
    expect(on(shipped, 4).map((p) => p.column)).toEqual(['status']); // and so the row has no status
    const noEvidence = COLUMNS.filter((c) => c !== 'evidence' && c !== 'territory_extra');
    expect(on(check([KIUC], {}, noEvidence), 3).map((p) => p.column)).toEqual(['evidence', 'territory_extra']);
    expect(check([KIUC], { shipped: false }, cols)).toEqual([]);
  });

  it('rejects a malformed id and a duplicate id on their own lines', () => {
    const problems = check([KIUC, { ...KIUC, id: 'Bad_ID', eia_id: '' }, { ...DUKE, id: 'kiuc' }]);
    expect(on(problems, 5, 'id')).toEqual([
      expect.objectContaining({
        severity: 'error',
        id: 'Bad_ID',
        column: 'id',
        message: expect.stringMatching(/lower-case/),
      }),
    ]);
    expect(on(problems, 6)).toEqual([
      expect.objectContaining({
        severity: 'error',
        id: 'kiuc',
        column: 'id',
        message: expect.stringMatching(/appears twice/),
      }),
    ]);
    expect(on(problems, 4)).toEqual([]);
  });

  it('rejects an unknown connector on an active row; a gated row may name a platform no connector reads yet', () => {
    const problems = check([
      KIUC,
      { ...KIUC, id: 'acme', connector: 'acme', eia_id: '' },
      { ...DUKE, connector: 'dakota-electric' }, // Dakota Electric's HTML map page: no connector yet
      { ...DUKE, id: 'proto', eia_id: '', connector: 'constructor' },
    ]);
    expect(on(problems, 7).map((p) => p.column)).toEqual(['connector', 'eia_id']);
    expect(on(problems, 5, 'connector')).toEqual([
      expect.objectContaining({
        severity: 'error',
        column: 'connector',
        message: expect.stringMatching(/must be one of kubra/),
      }),
    ]);
    expect(on(problems, 6)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        column: 'connector',
        message: expect.stringMatching(/fine while the row is gated$/),
      }),
    ]);
  });

  it('finds a duplicate id parseRegistry leaves alone (its first row was rejected)', () => {
    const problems = check([{ ...DUKE, interval_min: 0 }, DUKE]);
    expect(on(problems, 4).map((p) => p.column)).toEqual(['interval_min']);
    expect(on(problems, 5)).toEqual([
      expect.objectContaining({
        severity: 'error',
        column: 'id',
        message: '`duke-carolinas` appears twice (first on line 4); ids must be unique',
      }),
    ]);
  });

  it('checks the URL shape per connector: an error on an active row, a warning on a gated one', () => {
    const wrong = 'https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/index.html';
    const problems = check([
      { ...KIUC, url: wrong },
      { ...DUKE, connector: 'nisc', url: wrong },
    ]);
    expect(on(problems, 4)).toEqual([
      expect.objectContaining({ severity: 'error', column: 'url', message: expect.stringMatching(/nisc feed URL/) }),
    ]);
    expect(on(problems, 5)).toEqual([expect.objectContaining({ severity: 'warning', column: 'url' })]);
  });

  it('rejects placeholder hosts and CAPITALISED placeholders; loopback only in a shipped registry', () => {
    const rows = [
      { ...KIUC, url: 'https://outages.example-coop.com/data/summary.json' },
      { ...DUKE, url: 'https://kubra.io/stormcenter/api/v1/stormcenters/INSTANCE_ID/views/VIEW_ID/currentState' },
      { ...ODIN, url: 'http://127.0.0.1:8080/api/explore/v2.1/catalog/datasets/odin/records' },
    ];
    const problems = check(rows);
    expect(on(problems, 4).map((p) => [p.severity, p.column, p.message])).toEqual([
      ['error', 'url', expect.stringMatching(/^host `outages.example-coop.com` is a placeholder/)],
    ]);
    expect(
      on(problems, 5)
        .filter((p) => p.severity === 'error')
        .map((p) => p.message),
    ).toEqual([expect.stringMatching(/^`INSTANCE_ID`, `VIEW_ID` is a placeholder/)]);
    expect(on(problems, 6).filter((p) => /this machine/.test(p.message))).toHaveLength(1);
    const local = check(rows, { shipped: false });
    expect(on(local, 6).filter((p) => /this machine/.test(p.message))).toEqual([]);
    expect(on(local, 4)).toHaveLength(1);
    // Upper-case service names are real (NV Energy's ArcGIS CURRENTOUTAGES_2024, Fort Collins' EDAR_OMS)
    const arcgis = {
      ...KIUC,
      connector: 'arcgis',
      fixture: '',
      status: 'gated',
      status_reason: 'x',
      url: 'https://gis.fortcollins.gov/arcgis/rest/services/EDAR_OMS/CURRENTOUTAGES_2024/MapServer/7',
    };
    expect(check([arcgis]).filter((p) => p.column === 'url')).toEqual([]);
  });

  it('requires a known status, and a reason for gated and disabled rows', () => {
    const problems = check([
      { ...KIUC, status: 'paused' },
      { ...DUKE, status_reason: '' },
      { ...ODIN, status: 'disabled', status_reason: '' },
      { ...KIUC, id: 'k2', status: '', eia_id: '' },
    ]);
    expect(on(problems, 4).map((p) => p.column)).toEqual(['status']);
    expect(on(problems, 5).map((p) => [p.severity, p.column])).toEqual([['error', 'status_reason']]);
    expect(on(problems, 6).map((p) => [p.severity, p.column])).toEqual([['error', 'status_reason']]);
    expect(on(problems, 7, 'status').map((p) => p.message)).toEqual([
      'status is empty; use one of active, disabled, gated',
    ]);
  });

  it('requires eia_id numbers that exist in EIA-861, on every active deep row', () => {
    const problems = check([
      { ...KIUC, eia_id: '10071;12ab' },
      { ...KIUC, id: 'k2', eia_id: '424242' },
      { ...KIUC, id: 'k3', eia_id: '' },
    ]);
    expect(on(problems, 4).map((p) => [p.column, p.message])).toEqual([
      ['eia_id', '`12ab` is not an EIA-861 utility number (digits, several separated by ;)'],
    ]);
    expect(on(problems, 5).map((p) => [p.severity, p.message])).toEqual([
      ['error', '424242 is not a utility number in EIA-861 2018'],
    ]);
    expect(on(problems, 6).map((p) => [p.severity, p.column])).toEqual([['error', 'eia_id']]);
  });

  it('says so, once, when the EIA-861 reference is not available, and skips those checks', () => {
    const problems = check([{ ...KIUC, eia_id: '424242', customers: 5, state: 'HI;CA' }], { eia: null });
    expect(problems).toEqual([
      { line: 0, severity: 'warning', id: null, column: 'eia_id', message: expect.stringMatching(/not available/) },
    ]);
  });

  it('holds customers within ±35 % of EIA-861 unless status_reason explains the difference', () => {
    const eiaKiuc = 33000;
    const over = Math.ceil(eiaKiuc * 1.36);
    const within = Math.floor(eiaKiuc * 1.34);
    const problems = check([
      { ...KIUC, customers: over },
      { ...KIUC, id: 'k2', eia_id: '', customers: within },
      { ...DUKE, customers: 1000, status_reason: 'feed counts meters, EIA counts accounts' },
    ]);
    expect(on(problems, 4)).toEqual([
      expect.objectContaining({
        severity: 'error',
        column: 'customers',
        message: expect.stringMatching(new RegExp(`^${over.toLocaleString('en-US')} is 36 % from 33,000`)),
      }),
    ]);
    expect(on(problems, 5).filter((p) => p.column === 'customers')).toEqual([]);
    // Duke's EIA customers are NC + SC
    expect(on(problems, 6)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        column: 'customers',
        message: expect.stringContaining(`from ${(2005333 + 591113).toLocaleString('en-US')}`),
      }),
    ]);
  });

  it("requires the row's states to be among the utility's EIA-861 states", () => {
    const problems = check([
      { ...KIUC, state: 'HI;CA' },
      { ...DUKE, state: 'SC' },
    ]);
    expect(on(problems, 4)).toEqual([
      expect.objectContaining({
        severity: 'error',
        column: 'state',
        message: expect.stringMatching(/^CA not among the states EIA-861 2018 gives 10071/),
      }),
    ]);
    // SC alone: its customers are SC's only (591,113), so 2.6 million is too many
    expect(on(problems, 5).map((p) => p.column)).toEqual(['customers']);
  });

  it('allows one eia_id in one active deep row only (ODIN and gated rows aside)', () => {
    const rows = [
      KIUC,
      { ...KIUC, id: 'kiuc-2', eia_id: '5416;10071', state: 'HI;NC', customers: 2038333 },
      { ...KIUC, id: 'kiuc-gated', status: 'gated', status_reason: 'x' },
      { ...ODIN, eia_id: '10071', state: 'HI' },
    ];
    const problems = check(rows);
    expect(problems.filter((p) => p.column === 'eia_id')).toEqual([
      expect.objectContaining({
        line: 5,
        id: 'kiuc-2',
        severity: 'error',
        message: expect.stringMatching(/^10071 already has an active row \(`kiuc`, line 4\)/),
      }),
    ]);
  });

  it("requires each active row's fixture to exist under the fixture root and parse with its connector", () => {
    const problems = check([
      { ...KIUC, fixture: 'nisc/missing.json' },
      { ...KIUC, id: 'k2', eia_id: '', fixture: '../outside.json' },
      { ...KIUC, id: 'k3', eia_id: '', fixture: 'nisc/broken.json' },
      { ...KIUC, id: 'k4', eia_id: '', fixture: 'nisc/wrong-shape.json' },
      { ...KIUC, id: 'k5', eia_id: '', fixture: '' },
      { ...KIUC, id: 'k6', eia_id: '', fixture: 'probe' },
      { ...DUKE, fixture: 'nisc/missing.json' },
    ]);
    const fixture = (line: number) =>
      on(problems, line)
        .filter((p) => p.column === 'fixture')
        .map((p) => [p.severity, p.message]);
    expect(fixture(4)).toEqual([['error', `\`nisc/missing.json\` does not exist under ${root}`]]);
    expect(fixture(5)).toEqual([['error', '`../outside.json` leaves the fixture directory; give a path under it']]);
    expect(fixture(6)).toEqual([['error', expect.stringMatching(/^nisc\/broken.json is not JSON/)]]);
    expect(fixture(7)).toEqual([
      [
        'error',
        expect.stringMatching(
          /^the nisc connector cannot read nisc\/wrong-shape.json: NISC summary.json has an unexpected shape: regionDataSets/,
        ),
      ],
    ]);
    expect(fixture(8)).toEqual([['error', expect.stringMatching(/^fixture is empty/)]]);
    expect(fixture(9)).toEqual([['warning', expect.stringMatching(/saved probe directory/)]]);
    expect(fixture(10)).toEqual([['warning', expect.stringMatching(/does not exist/)]]); // gated: a warning
  });

  it('evidence: a known value on every shipped row; `own` needs a fixture; its territory is an error', () => {
    const counties: Record<string, string[]> = {
      [path.join(root, 'nisc/summary.json')]: ['15007'],
      [path.join(root, 'nisc/other.json')]: ['15007', '15009'],
    };
    const parseFixture: FixtureParser = (_row, file) => ({ ok: true, message: 'ok', counties: counties[file] ?? [] });
    const rows: Row[] = [
      { ...KIUC, evidence: 'maybe' },
      { ...KIUC, id: 'k2', eia_id: '', evidence: '' },
      { ...KIUC, id: 'k3', eia_id: '', evidence: 'own', fixture: '' },
      { ...KIUC, id: 'k4', eia_id: '', evidence: 'platform', provenance: '' },
    ];
    const problems = check(rows, { parseFixture });
    expect(on(problems, 4, 'evidence')).toEqual([
      expect.objectContaining({ severity: 'error', message: 'evidence `maybe` is not one of own, platform, none' }),
    ]);
    expect(on(problems, 5, 'evidence')).toEqual([expect.objectContaining({ severity: 'error' })]);
    expect(on(problems, 6, 'evidence')).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringMatching(/own.*names no fixture/) }),
    ]);
    expect(on(problems, 7, 'evidence')).toEqual([
      expect.objectContaining({ severity: 'error', message: expect.stringMatching(/public source.*provenance/) }),
    ]);
  });

  it('evidence against the samples list: `own`/`platform` need a real capture, `none` has none', () => {
    const parseFixture: FixtureParser = () => ({ ok: true, message: 'ok', counties: ['15007'] });
    const samples = new Set(['nisc/summary.json']);
    const rows: Row[] = [
      { ...KIUC, evidence: 'own' }, // its one fixture is a listed sample
      { ...KIUC, id: 'k2', evidence: 'platform', fixture: 'nisc/summary.json;nisc/broken.json' }, // one real
      { ...KIUC, id: 'k3', evidence: 'none', fixture: 'nisc/broken.json' }, // a real capture, yet `none`
      { ...KIUC, id: 'k4' }, // `none` on a sample: right
    ].map((r) => ({ ...r, eia_id: '', customers: '' }));
    const problems = check(rows, { parseFixture, samples });
    const evidence = (line: number) => on(problems, line, 'evidence').map((p) => [p.severity, p.message]);
    expect(evidence(4)).toEqual([
      ['error', expect.stringMatching(/^evidence is `own` but every fixture is a hand-made/)],
    ]);
    expect(evidence(5)).toEqual([]);
    expect(evidence(6)).toEqual([
      [
        'warning',
        'evidence is `none` but nisc/broken.json is a real capture (not in data/fixture-samples.csv): say `own` or `platform`',
      ],
    ]);
    expect(evidence(7)).toEqual([]);
    // without the list (a test registry, or before it is loaded) these are not judged
    expect(on(check(rows, { parseFixture }), 4, 'evidence')).toEqual([]);
  });

  it('checks each of several `;`-separated fixtures; an `own` row outside its territory is an error, unless excused', () => {
    const counties: Record<string, string[]> = {
      [path.join(root, 'nisc/summary.json')]: ['15007'],
      [path.join(root, 'nisc/wrong-shape.json')]: ['15007', '15009'],
    };
    const seen: string[] = [];
    const parseFixture: FixtureParser = (row, file) => {
      seen.push(`${row.id} ${row.record.fixture}`);
      return { ok: true, message: 'ok', counties: counties[file] ?? [] };
    };
    const two = 'nisc/summary.json; nisc/wrong-shape.json';
    const rows: Row[] = [
      { ...KIUC, evidence: 'own', fixture: two },
      { ...KIUC, id: 'k2', evidence: 'platform', fixture: two },
      { ...KIUC, id: 'k3', evidence: 'own', fixture: two, territory_extra: '15009' },
      { ...KIUC, id: 'k4', evidence: 'own', fixture: 'nisc/summary.json;nisc/missing.json' },
    ].map((r, i) => (i ? { ...r, eia_id: '10071', customers: 36000 } : r));
    const problems = check(rows, { parseFixture });
    expect(seen.slice(0, 2)).toEqual(['kiuc nisc/summary.json', 'kiuc nisc/wrong-shape.json']);
    const territory = (line: number) =>
      on(problems, line, 'fixture')
        .filter((p) => /territory/.test(p.message))
        .map((p) => p.severity);
    expect(territory(4)).toEqual(['error']);
    expect(territory(5)).toEqual(['warning']);
    expect(territory(6)).toEqual([]);
    expect(on(problems, 7, 'fixture')).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(/nisc\/missing.json. does not exist/),
      }),
    ]);
  });

  it('takes a fixture parser as an argument (e.g. a probe replay) and warns when its counties leave the territory', () => {
    const seen: Array<[string, string]> = [];
    const parseFixture: FixtureParser = (row, file) => {
      seen.push([row.source.id, file]);
      return row.source.id === 'kiuc'
        ? { ok: true, message: 'ok', counties: ['15007', '15009'] }
        : { ok: false, message: 'replay failed: no index.json' };
    };
    const problems = check([KIUC, { ...KIUC, id: 'k2', eia_id: '' }], { parseFixture });
    expect(seen).toEqual([
      ['kiuc', path.join(root, 'nisc/summary.json')],
      ['k2', path.join(root, 'nisc/summary.json')],
    ]);
    expect(on(problems, 4)).toEqual([
      expect.objectContaining({
        severity: 'warning',
        column: 'fixture',
        message: "1 of 2 counties from the fixture lie outside the utility's EIA-861 service territory (15009)",
      }),
    ]);
    expect(on(problems, 5, 'fixture')).toEqual([
      expect.objectContaining({ severity: 'error', column: 'fixture', message: 'replay failed: no index.json' }),
    ]);
  });

  it('says so, once, when the fixture directory is not available', () => {
    expect(check([{ ...KIUC, fixture: 'nope.json' }], { fixtureRoot: null })).toEqual([
      { line: 0, severity: 'warning', id: null, column: 'fixture', message: expect.stringMatching(/not available/) },
    ]);
  });
});

const WORKBOOKS = sharedPath('reference/eia861');

describe('sources check on the committed EIA-861 reference (data/reference)', () => {
  it.skipIf(!hasSharedData || !existsSync(path.join(WORKBOOKS, 'Sales_Ult_Cust_2018.xlsx')))(
    'is the EIA-861 2018 workbooks, derived: every utility × state and its customers',
    () => {
      const committed = parse(readFileSync(fromRoot('data/reference', EIA_FILES.customers)), { columns: true });
      const derived = referenceRows(WORKBOOKS).map((r) => ({
        ...r,
        utility_number: String(r.utility_number),
        customers: r.customers === null ? '' : String(r.customers),
      }));
      expect(derived.length).toBeGreaterThan(4000);
      expect(committed).toEqual(derived);
    },
    60_000,
  );

  it('gives customers on the wires (bundled + delivery-only) and counties of the service territory', () => {
    const eia = loadEiaReference()!;
    // EIA-861 2018, Sales_Ult_Cust, States sheet
    expect(eia.utilities.get(14328)?.customers.get('CA')).toBe(3847071 + 1624715);
    expect(eia.utilities.get(5416)?.customers.get('SC')).toBe(591113);
    // Kauai Island Utility Cooperative: Kauai County, the one county of its Service_Territory rows
    expect([...(eia.utilities.get(10071)?.counties ?? [])]).toEqual(['15007']);
  });

  it.skipIf(!hasSharedData)('passes a row checked against the real KIUC payload', () => {
    const eia = loadEiaReference();
    const text = registry([{ ...KIUC, fixture: 'payloads/kiuc/summary.json' }]);
    expect(checkRegistry(text, { eia, fixtureRoot: SHARED_DATA }).problems).toEqual([]);
    // The same payload under a utility elsewhere: its county (Kauai, 15007) is outside that territory.
    const moved = checkRegistry(
      registry([{ ...KIUC, eia_id: '5416', state: 'HI', fixture: 'payloads/kiuc/summary.json' }]),
      { eia, fixtureRoot: SHARED_DATA },
    ).problems;
    expect(moved.filter((p) => p.severity === 'error').map((p) => p.column)).toEqual(['state']);
    expect(moved.find((p) => p.column === 'fixture')?.message).toBe(
      "1 of 1 counties from the fixture lie outside the utility's EIA-861 service territory (15007)",
    );
  });
});
