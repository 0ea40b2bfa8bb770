// `outage sources check`: everything the tests verify about a registry file, as problems with line numbers.
// Row shape and ids come from parseRegistry (the one row schema); this module adds the checks a shipped registry
// needs (spec: Resources — Source; issue "Real national coverage", parts 1, 2 and 6).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.ts';
import { connectorFor } from '../sources/connectors.ts';
import { formatOf as aesFormatOf } from '../sources/aes/fetch.ts';
import { recordedRaw as avangridRecorded } from '../sources/avangrid/recorded.ts';
import { recordedRaw as dukeRecorded } from '../sources/duke/recorded.ts';
import { recordedRaw as hecoRecorded } from '../sources/heco/recorded.ts';
import { recordedRaw as kubraRecorded } from '../sources/kubra/recorded.ts';
import { recordedRaw as milsoftMobileRecorded } from '../sources/milsoftmobile/recorded.ts';
import { checkEia, eiaIds, territoryFindings, type EiaReference } from './eia-reference.ts';
import { checkEvidence, fixturesOf, territorySeverity } from './evidence.ts';
import { httpsForm, transportProblem } from '../sources/transport.ts';
import { REQUIRED_COLUMNS, parseRegistry, type RegistryProblem } from './registry.ts';
import type { ConnectorName, SourceDef } from '../sources/source-def.ts';

export type Severity = 'error' | 'warning';
export interface CheckProblem {
  line: number;
  severity: Severity;
  id: string | null;
  column: string | null;
  message: string;
}
export type Finding = Omit<CheckProblem, 'line' | 'id'>;

/** The columns a shipped registry carries besides the required ones (issue "Real national coverage", part 1). */
export const SHIPPED_COLUMNS = [
  'customers',
  'eia_id',
  'platform',
  'customers_source',
  'map_page',
  'provenance',
  'status',
  'status_reason',
  'fixture',
  'evidence',
  'territory_extra',
] as const;
export const STATUSES = ['active', 'disabled', 'gated'] as const;
/** The shipped registry's columns in file order (data/sources.csv; scripts/build-registry.ts writes them). */
export const REGISTRY_COLUMNS = [...REQUIRED_COLUMNS, 'options', ...SHIPPED_COLUMNS] as const;

/** One registry row as the checks see it; `source` is null when parseRegistry rejected the row. */
export interface CheckRow {
  line: number;
  id: string;
  record: Record<string, string>;
  status: string;
  active: boolean;
  source: SourceDef | null;
}

export interface FixtureResult {
  ok: boolean;
  message: string;
  /** true when the parser could not judge the fixture (a warning, not an error) */
  skipped?: boolean;
  /** county FIPS codes the connector produced, for the service-territory check */
  counties?: string[];
}
/** Parses a row's fixture (absolute `file`); the default reads one JSON document, a probe replay can replace it. */
export type FixtureParser = (row: CheckRow & { source: SourceDef }, file: string) => FixtureResult;

export interface CheckOptions {
  /** the EIA-861 reference; null when its files are not available (those checks become one warning) */
  eia: EiaReference | null;
  /** directory fixture paths are relative to (`../shared/data`); null when not available */
  fixtureRoot: string | null;
  parseFixture?: FixtureParser;
  /** a registry that ships (default): no loopback hosts, the shipped columns and an explicit status required */
  shipped?: boolean;
}

const UUID = '[0-9a-f-]{36}';
/** What a row's url must look like, per connector. Typed so that a connector added to CONNECTORS needs a shape. */
export const URL_SHAPES: Record<ConnectorName, RegExp> & Record<string, RegExp> = {
  kubra: new RegExp(`^https://kubra\\.io/stormcenter/api/v1/stormcenters/${UUID}/views/${UUID}/currentState(\\?.*)?$`),
  nisc: /^https:\/\/[^/]+\/(.*\/)?summary\.json(\?.*)?$/,
  arcgis: /^https:\/\/[^/]+\/.+\/(MapServer|FeatureServer)\/\d+(\/query)?\/?(\?.*)?$/,
  odin: /^https:\/\/ornl\.opendatasoft\.com\/api\/explore\/v2\.1\/catalog\/datasets\/[a-z0-9_-]+\/(records|exports\/[a-z]+)\/?(\?.*)?$/,
  fpl: /^https:\/\/[^/]+\/.+\.json(\?.*)?$/,
  milsoft: /^https:\/\/[^/]+(\/.*)?\/data\/(boundaries|outages)(\.json)?$/,
  outageentry: /^https:\/\/www\.outageentry\.com\/Outage\/ajax\/ajaxShellOut\.php$/,
  datacapable: /^https:\/\/[^/]+\/datacapable\/v2\/p\/[^/]+(\/r\/[^/]+)?\/map\/events$/,
  ifactor: /^https:\/\/[^/]+\/resources\/data\/external\/interval_generation_data(\/metadata\.json)?\/?$/,
  omap: /^https:\/\/[^/]+\/OMAP\/api\/Omap\/Outage\/Tabular(\?opco=[A-Z]+)?$/,
  pacificorp:
    /^https:\/\/www\.(pacificpower|rockymountainpower)\.net\/etc\/pcorp\/datafiles\/outagemap\/map(\{ST\}|[A-Z]{2})\.json$/,
  smartc:
    /^https:\/\/([a-z0-9-]+\.smartcmobile\.com\/WidgetAPI\/Outage\/\w+(\?.*)?|[^/]+\/.*\/outage\/alloutages\/\d+\/\d+(\/\w+)?(\?.*)?)$/i,
  wec: /^https:\/\/[^/]+\/outagesummary\/view\/OutageEventJSON$/,
  puget: /^https:\/\/www\.pse\.com\/api\/sitecore\/OutageMap\/AnonymoussMapListView$/,
  nisource: /^https:\/\/[^/]+\/nisource-api\/ldc\/GetPowerOutages$/,
  pgegraphql: /^https:\/\/apix\.portlandgeneral\.com\/pge-graphql$/,
  midamerican: /^https:\/\/www\.midamericanenergy\.com\/OutageWatch\/api\/County\/CountyInfo\/?$/,
  smud: /^https:\/\/usage\.smud\.org\/omkml\/api\/communitylist\/?$/,
  idahopower: /^https:\/\/apiedge\.idahopower\.com\/api\/Outage\/GetCurrentOutageInformation$/,
  mlgw: /^https:\/\/outagemap\.mlgw\.org\/geojson\.php$/,
  tep: /^https:\/\/apps\.tep\.com\/OutageApp\/mapfeed\/?$/,
  nwe: /^https:\/\/(www\.)?northwesternenergy\.com\/get-outage-map-data\/?$/,
  aes: /^https:\/\/(myaccount\.aesindiana\.com\/OMSDATA\/OMSDATA_OSI|myprofile\.aes-ohio\.com\/DATA\/DPLOMSDATA)\.xml$/,
  teco: /^https:\/\/[^/]+\/api\/v1\/outage-tiles\/?$/,
  kub: /^https:\/\/www\.kub\.org\/api\/outage\/v1\/electric-outages\/?$/,
  clarkpud: /^https:\/\/www\.clarkpublicutilities\.com\/outage-map\/data\.js$/,
  novec: /^https:\/\/www\.novec\.com\/stormcenter\/data\/outagedtl\.xml$/,
  luma: /^https:\/\/api\.miluma\.lumapr\.com\/miluma-outage-api\/outage\/regionsWithoutService\/?$/,
  anaheim: /^https:\/\/gis\.anaheim\.net\/electricoutages\/ActiveIncidents\.cshtml$/,
  gridvu: /^https:\/\/[^/]+\/GridVuServer\/Public\/getAllOutages\/?$/i,
  sienatech: /^https:\/\/[^/]+\/Outages\/Home\/UpdatePushpin$/i,
  duke: /^https:\/\/[^/]+\/outage-maps\/v1\/counties\?jurisdiction=[A-Z]{3}$/,
  avangrid: /^https:\/\/apim\.avangrid\.com\/[a-z]+\/v1\/public\/outagedata\?filter=(county|town)$/,
  pointlist: /^https:\/\/[^/]+\/\S*$/,
  heco: /^https:\/\/[^/]+\/api\/v1\/outages\/?$/,
  elpaso: /^https:\/\/[^/]+\/OmsApi\/GetOutages\/?$/i,
  snopud: /^https:\/\/outagemap\.snopud\.com\/Home\/KMLOutageAreas\/?$/,
  gmp: /^https:\/\/api\.greenmountainpower\.com\/api\/v2\/outages\/incidents\/towns(\?all=true)?$/,
  liberty: /^https:\/\/[^/]+\/OutageAPI\/api\/1\/Outage\/OutageSummaryCity\?companyGroupCode=[A-Za-z0-9]+$/i,
  chugach: /^https:\/\/www\.chugachelectric\.com\/outage\/Grids\.js$/,
  milsoftmobile: /^https:\/\/[^/]+(\/[^?#]*)?\/MobileMap\/OMSMobileService\.asmx\/GetAllCounties$/i,
};

/** Reserved example hosts (RFC 2606) and names like `example-coop.com`, as in sources.example.csv. */
const EXAMPLE_HOST = /(^|\.)example(-[a-z0-9-]+)?\.(com|org|net)$|\.(example|test|invalid)$/i;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$|\.localhost$/i;
/**
 * INSTANCE_ID, VIEW_ID, YOUR_TENANT, {tenant}, <KEY>, CHANGEME: what a template leaves for a person to fill in. Real
 * upper-case segments exist (ArcGIS services such as EDAR_OMS or CURRENTOUTAGES_2024), so only these words count.
 */
const PLACEHOLDER =
  /^([A-Z0-9]+_)*(ID|KEY|GUID|UUID|SLUG|TOKEN|NAME)$|^(YOUR|MY)_[A-Z0-9_]+$|^(INSTANCE|TENANT|CLIENT|CHANGEME|PLACEHOLDER|TODO|X{3,})$|^\{[^}]*\}$|^<[^>]*>$/;

const decoded = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // a stray % is the shape check's business
  }
};

/** The row's options as parsed, or read from its record when parseRegistry rejected the row ({} when not an object). */
function optionsOf(row: CheckRow): Record<string, unknown> {
  if (row.source) return row.source.options;
  try {
    const o: unknown = JSON.parse(row.record.options || '{}');
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : {};
  } catch {
    return {}; // parseRegistry reports options that are not JSON
  }
}

export function checkUrl(row: CheckRow, shipped: boolean): Finding[] {
  let u: URL;
  try {
    u = new URL(row.record.url);
  } catch {
    return []; // parseRegistry already reported it
  }
  const out: Finding[] = [];
  const bad = (message: string) => out.push({ severity: 'error', column: 'url', message });
  if (EXAMPLE_HOST.test(u.hostname)) bad(`host \`${u.hostname}\` is a placeholder; use the utility's real feed host`);
  if (shipped && LOOPBACK_HOST.test(u.hostname))
    bad(`host \`${u.hostname}\` is this machine; a shipped registry names the utility's real feed host`);
  const parts = [...u.pathname.split('/').map(decoded), ...u.searchParams.values()];
  const held = parts.filter((p) => PLACEHOLDER.test(p));
  if (held.length)
    bad(
      `\`${held.join('`, `')}\` is a placeholder; replace it with the utility's real value (see its map page's network requests)`,
    );
  // spec: issue 26 — plain http only where the row's options.plain_http says why (./transport.ts)
  const transport = transportProblem(u, optionsOf(row), LOOPBACK_HOST.test(u.hostname));
  if (transport) bad(transport);
  // The shapes name https; a plain-http row (allowed or not, reported above) is matched in its https form.
  const shape = Object.hasOwn(URL_SHAPES, row.record.connector) ? URL_SHAPES[row.record.connector] : undefined;
  if (shape && !shape.test(httpsForm(u.href)) && !shape.test(httpsForm(row.record.url))) {
    out.push({
      severity: row.active ? 'error' : 'warning',
      column: 'url',
      message: `does not look like a ${row.record.connector} feed URL (expected ${shape.source})`,
    });
  }
  return out;
}

export function checkStatus(row: CheckRow, shipped: boolean): Finding[] {
  const { status } = row;
  if (status === '')
    return shipped
      ? [{ severity: 'error', column: 'status', message: `status is empty; use one of ${STATUSES.join(', ')}` }]
      : [];
  if (!(STATUSES as readonly string[]).includes(status))
    return [
      { severity: 'error', column: 'status', message: `status \`${status}\` is not one of ${STATUSES.join(', ')}` },
    ];
  if (status !== 'active' && !row.record.status_reason?.trim()) {
    return [
      {
        severity: 'error',
        column: 'status_reason',
        message: `a ${status} row needs a status_reason saying why it is not polled and what would make it active`,
      },
    ];
  }
  return [];
}

/**
 * Recorded scraper bundles (see ../shared/data/README.md) combine several upstream responses in one file; this is how
 * each becomes the raw value its connector's fetch returns. A saved probe directory needs none of this.
 */
const BUNDLES: Partial<Record<ConnectorName, (doc: Record<string, unknown>) => unknown>> = {
  datacapable: (d) => d.reports ?? d,
  smartc: (d) => d.reports ?? d,
  clarkpud: (d) => d.result ?? d,
  ifactor: (d) =>
    d.nyc ? { directory: 'recorded', summary: d.summary, reports: [d.nyc, d.westchester].filter(Boolean) } : d,
  pacificorp: (d) => (d.states ? d : 'outages' in d ? { states: [{ state: 'UT', map: d, list: d }] } : d),
};

/** Fixtures that are not JSON (AES's XML): the file's text as that connector's fetch returns it for the feed `url`. */
const TEXT_FIXTURES: Partial<Record<ConnectorName, (text: string, url: string) => unknown>> = {
  aes: (xml, url) => ({ format: aesFormatOf(url), xml }),
  novec: (xml) => xml,
  sienatech: (xml) => xml,
  snopud: (xml) => xml,
  milsoftmobile: (xml) => milsoftMobileRecorded(xml),
};

/** A fixture file's text as the row's connector's fetch returns it, for the feed at `url`. */
export function fixtureRaw(connector: ConnectorName, url: string, text: string): unknown {
  const asText = TEXT_FIXTURES[connector];
  return asText ? asText(text, url) : rawOf(connector, JSON.parse(text));
}

/** Recorded files a scraper reshaped (a bare list included): each connector folder's own adapter undoes it. */
const RECORDED: Partial<Record<ConnectorName, (doc: unknown) => unknown>> = {
  duke: dukeRecorded,
  avangrid: avangridRecorded,
  kubra: kubraRecorded,
  heco: hecoRecorded,
};

export const rawOf = (connector: ConnectorName, doc: unknown) =>
  RECORDED[connector]
    ? RECORDED[connector](doc)
    : doc && typeof doc === 'object' && !Array.isArray(doc) && BUNDLES[connector]
      ? BUNDLES[connector]!(doc as Record<string, unknown>)
      : doc;

/**
 * Files a connector's fetch requests beside the one a fixture names, recorded beside it under the matching name:
 * NISC's `…config.json` beside `…summary.json` (the map extent that places outages without a county region set).
 */
const SIBLINGS: Partial<Record<ConnectorName, (file: string, raw: unknown) => unknown>> = {
  nisc: (file, summary) => {
    const config = file.replace(/summary\.json$/, 'config.json');
    return config !== file && existsSync(config)
      ? { summary, config: JSON.parse(readFileSync(config, 'utf8')) }
      : summary;
  },
};

/** A recorded file (and the files recorded beside it) as the connector's fetch returns it, for the feed at `url`. */
export function recordedRaw(connector: ConnectorName, url: string, file: string): unknown {
  const raw = fixtureRaw(connector, url, readFileSync(file, 'utf8'));
  return SIBLINGS[connector] ? SIBLINGS[connector](file, raw) : raw;
}

/** The default fixture parser: one JSON document through the row's connector (parsed files are shared by rows). */
export function jsonFixtureParser(): FixtureParser {
  const docs = new Map<string, unknown>();
  return (row, file) => {
    if (statSync(file).isDirectory())
      return {
        ok: false,
        skipped: true,
        message: `${row.record.fixture} is a saved probe directory; replaying it is not wired into this check yet`,
      };
    const key = `${row.source.connector}|${TEXT_FIXTURES[row.source.connector] ? row.source.url : ''}|${file}`;
    let raw = docs.get(key);
    if (raw === undefined) {
      try {
        raw = recordedRaw(row.source.connector, row.source.url, file);
      } catch (err) {
        return { ok: false, message: `${row.record.fixture} is not JSON: ${(err as Error).message}` };
      }
      docs.set(key, raw);
    }
    return parsedFixture(row, raw);
  };
}

/** A fixture's raw through the row's connector: its counties, or why the connector cannot read it. */
function parsedFixture(row: CheckRow & { source: SourceDef }, raw: unknown): FixtureResult {
  try {
    const snap = connectorFor(row.source.connector).normalize(raw, row.source);
    return { ok: true, message: `${snap.counties.length} counties`, counties: snap.counties.map((c) => c.fips) };
  } catch (err) {
    return {
      ok: false,
      message: `the ${row.source.connector} connector cannot read ${row.record.fixture}: ${(err as Error).message.split('\n')[0]}`,
    };
  }
}

export function checkFixture(
  row: CheckRow,
  opts: Required<Pick<CheckOptions, 'fixtureRoot' | 'parseFixture' | 'shipped'>> & { eia: EiaReference | null },
): Finding[] {
  const fixtures = fixturesOf(row.record);
  if (fixtures.length === 0)
    return row.active && opts.shipped
      ? [
          {
            severity: row.active ? 'error' : 'warning',
            column: 'fixture',
            message:
              'fixture is empty; save the feed with `outage sources probe ID --save DIR` and name it here (a path under ../shared/data)',
          },
        ]
      : [];
  return fixtures.flatMap((fixture) => checkOneFixture(row, fixture, opts));
}

/** One fixture path of the row: under the root, present, parsed by the row's connector, inside the territory. */
function checkOneFixture(
  row: CheckRow,
  fixture: string,
  opts: Required<Pick<CheckOptions, 'fixtureRoot' | 'parseFixture'>> & { eia: EiaReference | null },
): Finding[] {
  const severity: Severity = row.active ? 'error' : 'warning';
  if (!opts.fixtureRoot) return [];
  const file = path.resolve(opts.fixtureRoot, fixture);
  if (path.relative(opts.fixtureRoot, file).startsWith('..'))
    return [
      {
        severity: 'error',
        column: 'fixture',
        message: `\`${fixture}\` leaves the fixture directory; give a path under it`,
      },
    ];
  if (!existsSync(file))
    return [{ severity, column: 'fixture', message: `\`${fixture}\` does not exist under ${opts.fixtureRoot}` }];
  if (!row.source) return [];
  const got = opts.parseFixture({ ...row, source: row.source, record: { ...row.record, fixture } }, file);
  if (!got.ok) return [{ severity: got.skipped ? 'warning' : severity, column: 'fixture', message: got.message }];
  const severe = territorySeverity(row);
  return territoryFindings(row, got.counties ?? [], opts.eia).map((f) => ({
    ...f,
    severity: severe,
    message: severe === 'error' ? `${f.message}; the row's own capture must fit its territory` : f.message,
  }));
}

const CSV_OPTIONS = {
  columns: true,
  skip_empty_lines: true,
  bom: true,
  trim: true,
  info: true,
  relax_column_count: true,
  comment: '#',
} as const;

/** The header's line number and names (the first line that is neither blank nor a `#` comment). */
function headerOf(text: string): { line: number; names: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const i = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return { line: i + 1, names: i < 0 ? [] : lines[i].split(',').map((s) => s.trim()) };
}

/** parseRegistry's messages are `column: message` joined by `; `; split them back so each names its column. */
function registryFindings(problems: RegistryProblem[]): Map<number, Finding[]> {
  const byLine = new Map<number, Finding[]>();
  for (const p of problems) {
    const parts = p.message.split(/; (?=[a-z_]+(?:\.[\w.]+)?: )/).map((part): Finding => {
      const m = /^([a-z_]+)(?:\.[\w.]+)?: ([\s\S]*)$/.exec(part);
      return { severity: 'error', column: m && m[1] !== 'row' ? m[1] : null, message: m ? m[2] : part };
    });
    byLine.set(p.line, [...(byLine.get(p.line) ?? []), ...parts]);
  }
  return byLine;
}

export interface CheckReport {
  problems: CheckProblem[];
  rows: number;
  /** rows per status (`(empty)` for none) */
  by_status: Record<string, number>;
}

/** Every problem in a registry text, in line order. Throws UsageError only when the text is not CSV at all. */
export function checkRegistry(text: string, options: CheckOptions): CheckReport {
  const shipped = options.shipped ?? true;
  const header = headerOf(text);
  const at =
    (line: number, id: string | null) =>
    (f: Finding): CheckProblem => ({ line, id, ...f });
  const missing = REQUIRED_COLUMNS.filter((c) => !header.names.includes(c));
  const absent = shipped ? SHIPPED_COLUMNS.filter((c) => !header.names.includes(c)) : [];
  const problems = [
    ...missing.map(
      (c): Finding => ({
        severity: 'error',
        column: c,
        message: `required column \`${c}\` is missing from the header`,
      }),
    ),
    ...absent.map(
      (c): Finding => ({
        severity: 'error',
        column: c,
        message: `column \`${c}\` is missing; a shipped registry carries every one of ${SHIPPED_COLUMNS.join(', ')} (--local checks a test registry)`,
      }),
    ),
  ].map(at(header.line, null));
  if (missing.length) return { problems, rows: 0, by_status: {} };
  const rows = rowsOf(text, shipped);
  const parseFixture = options.parseFixture ?? jsonFixtureParser();
  for (const row of rows) {
    const findings = [
      ...row.rejected,
      ...checkStatus(row, shipped),
      ...checkUrl(row, shipped),
      ...checkEia(row, options.eia, shipped),
      ...checkFixture(row, { fixtureRoot: options.fixtureRoot, parseFixture, shipped, eia: options.eia }),
      ...checkEvidence(row, shipped),
    ];
    problems.push(...findings.map(at(row.line, row.id || null)));
  }
  problems.push(...sharedEiaIds(rows), ...yieldTargets(rows));
  if (!options.eia)
    problems.push(
      at(
        0,
        null,
      )({
        severity: 'warning',
        column: 'eia_id',
        message: 'the EIA-861 reference files are not available: eia_id, customers and states were not checked',
      }),
    );
  if (!options.fixtureRoot)
    problems.push(
      at(
        0,
        null,
      )({
        severity: 'warning',
        column: 'fixture',
        message: 'the fixture directory (../shared/data) is not available: fixtures were not checked',
      }),
    );
  const by_status: Record<string, number> = {};
  for (const r of rows) by_status[r.status || '(empty)'] = (by_status[r.status || '(empty)'] ?? 0) + 1;
  return { problems: problems.sort((a, b) => a.line - b.line), rows: rows.length, by_status };
}

/** The records with their line numbers, each joined to its SourceDef, or to parseRegistry's findings when rejected. */
function rowsOf(text: string, shipped: boolean): Array<CheckRow & { rejected: Finding[] }> {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, CSV_OPTIONS);
  } catch (err) {
    throw new UsageError(`The source registry is not valid CSV: ${(err as Error).message}`);
  }
  const registry = parseRegistry(text, { allStatuses: true });
  const rejected = registryFindings(registry.problems);
  const sources = new Map(registry.sources.map((s) => [s.id, s]));
  const seen = new Map<string, number>();
  return records.map(({ record, info }) => {
    const status = (record.status ?? '').trim();
    const active = status === 'active' || (status === '' && !shipped);
    const bad = rejected.get(info.lines);
    // A gated or disabled row may name a platform no connector reads yet: that is why it is not active. The status
    // column is checkStatus's, should parseRegistry learn to read it too.
    const findings = (bad ?? [])
      .filter((f) => f.column !== 'status')
      .map(
        (f): Finding =>
          f.column === 'connector' && !active
            ? { ...f, severity: 'warning', message: `${f.message}; fine while the row is ${status || 'not active'}` }
            : f,
      );
    const id = record.id ?? '';
    const first = seen.get(id);
    if (first === undefined) seen.set(id, info.lines);
    else if (!findings.some((f) => f.column === 'id'))
      findings.push({
        severity: 'error',
        column: 'id',
        message: `\`${id}\` appears twice (first on line ${first}); ids must be unique`,
      });
    return {
      line: info.lines,
      id,
      record,
      status,
      active,
      source: bad ? null : (sources.get(id) ?? null),
      rejected: findings,
    };
  });
}

/** One eia_id in at most one active deep (non-ODIN) row, so no utility is counted twice. */
function sharedEiaIds(rows: CheckRow[]): CheckProblem[] {
  const first = new Map<number, CheckRow>();
  const out: CheckProblem[] = [];
  for (const row of rows.filter((r) => r.active && r.record.connector !== 'odin')) {
    for (const id of new Set(eiaIds(row).ids)) {
      const prev = first.get(id);
      if (!prev) first.set(id, row);
      else
        out.push({
          line: row.line,
          id: row.id,
          severity: 'error',
          column: 'eia_id',
          message: `${id} already has an active row (\`${prev.id}\`, line ${prev.line}); one utility is polled by one deep row: disable one, or give each row only its own eia_id`,
        });
    }
  }
  return out;
}

/**
 * A row that yields to a credential (`options.yields_to_credential`) steps aside for a credentialed row of the same
 * utility: some row must name that variable in its `credential_env` and share an eia_id, else the row would stop
 * polling for nothing when the variable is set.
 */
function yieldTargets(rows: CheckRow[]): CheckProblem[] {
  const out: CheckProblem[] = [];
  for (const row of rows) {
    const name = optionsOf(row).yields_to_credential;
    if (name === undefined) continue;
    const ids = new Set(eiaIds(row).ids);
    const target = rows.find(
      (r) => r !== row && optionsOf(r).credential_env === name && eiaIds(r).ids.some((id) => ids.has(id)),
    );
    if (typeof name === 'string' && target) continue;
    out.push({
      line: row.line,
      id: row.id,
      severity: 'error',
      column: 'options',
      message: `options.yields_to_credential \`${JSON.stringify(name)}\` names no row of the same utility (eia_id) whose options.credential_env is that variable`,
    });
  }
  return out;
}

/** Reads and checks a registry file; a file that cannot be read is a UsageError. */
export function checkRegistryFile(file: string, options: CheckOptions): CheckReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read the source registry \`${file}\`: ${(err as Error).message}`);
  }
  return checkRegistry(text, options);
}
