// Builds the shipped registry data/sources.csv (and data/uncovered-utilities.csv) from the peer registry's facts and
// EIA-861 2018. A maintenance script: it reads ../shared/data at build time. Run: npx tsx scripts/build-registry.ts
// (--explain prints every row's EIA match candidates). The rules it applies are documented in data/sources.md.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'csv-stringify/sync';
import { readWorkbook } from '../pipeline/src/history/spreadsheet.ts';
import { parseCustomers, parseReliability, parseTerritory } from '../pipeline/src/history/eia861.ts';
import { REGISTRY_COLUMNS } from '../pipeline/src/registry/findings.ts';
import { STATES, findState } from '../pipeline/src/geo/states.ts';
import { EXTRA_ROWS, FIXTURES, GATED, NEW_PEERS, OVERRIDES, SAMPLES, UNWIRED_URLS } from './registry-overrides.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = path.resolve(ROOT, process.env.OUTAGE_SHARED_DATA ?? '../shared/data');
const PEER_FILE = 'reference/peer-registries/outage-atlas-utilities.jsonl';
const EIA_DIR = 'reference/eia861';
const COLUMNS = REGISTRY_COLUMNS;
type Row = Record<(typeof COLUMNS)[number], string>;
const ODIN_URL =
  'https://ornl.opendatasoft.com/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json';
const GAP_LIMIT = 0.35;
/** The 50 states and DC (FIPS ≤ 56): what ODIN covers and what the national share counts. */
const US_STATES = STATES.filter((s) => Number(s.fips) <= 56).map((s) => s.code);

// ---- EIA-861 2018 ----------------------------------------------------------------------------------------------

interface Utility {
  id: number;
  name: string;
  ownership: string | null;
  states: Set<string>;
  customers: Map<string, number>;
  source: string;
}

/** Wires utilities (not retail marketers, behind-the-meter solar or EIA's state adjustment rows). */
const WIRES = new Set(['Investor Owned', 'Cooperative', 'Municipal', 'Political Subdivision', 'State', 'Federal']);

function loadEia(): { utilities: Map<number, Utility>; stateCustomers: Map<string, number> } {
  const dir = path.join(SHARED, EIA_DIR);
  const utilities = new Map<number, Utility>();
  const get = (id: number, name: string): Utility => {
    let u = utilities.get(id);
    if (!u)
      utilities.set(
        id,
        (u = { id, name, ownership: null, states: new Set(), customers: new Map(), source: 'EIA-861 2018' }),
      );
    return u;
  };
  const stateCustomers = new Map<string, number>();
  for (const { row: r, line } of parseCustomers(readWorkbook(path.join(dir, 'Sales_Ult_Cust_2018.xlsx')))) {
    // Part B (energy-only) customers are the same meters as Part C (delivery-only): count each meter once.
    if (!r || r.part === 'B' || r.ownership === 'Behind the Meter') continue;
    if (line.startsWith('States')) stateCustomers.set(r.state, (stateCustomers.get(r.state) ?? 0) + r.customers);
    // A utility's own customers are those on its wires: bundled (A) and delivery-only (C). Part D is Texas retail
    // providers' bundled service: national customers, but on the wires of the ERCOT companies below.
    if (r.part === 'D') continue;
    const u = get(r.utility_number, r.utility_name);
    u.ownership ??= r.ownership;
    u.customers.set(r.state, (u.customers.get(r.state) ?? 0) + r.customers);
  }
  for (const { row: r } of parseTerritory(readWorkbook(path.join(dir, 'Service_Territory_2018.xlsx'))))
    if (r) get(r.utility_number, r.utility_name).states.add(r.state);
  // ERCOT's wires companies (Oncor, CenterPoint, AEP Texas, TNMP) file no Sales_Ult_Cust rows: their customers are
  // counted under the retail providers (Part D). Reliability_States still gives each one's customer count.
  const noSales = new Set([...utilities.values()].filter((u) => total(u) === 0).map((u) => u.id));
  for (const { row: r } of parseReliability(readWorkbook(path.join(dir, 'Reliability_2018.xlsx')))) {
    const u = r && noSales.has(r.utility_number) ? utilities.get(r.utility_number) : undefined;
    if (!u || !r?.customers) continue;
    u.source = 'EIA-861 2018 Reliability';
    u.ownership ??= r.ownership;
    u.customers.set(r.state, Math.max(u.customers.get(r.state) ?? 0, r.customers));
  }
  for (const u of utilities.values()) for (const [s, n] of u.customers) if (n > 0) u.states.add(s);
  return { utilities, stateCustomers };
}

const total = (u: Utility, states?: string[]) =>
  [...u.customers].reduce((s, [st, n]) => s + (!states || states.includes(st) ? n : 0), 0);

// ---- matching peer names to EIA utility numbers ----------------------------------------------------------------

const SYNONYMS: Array<[RegExp, string]> = [
  [/&/g, ' AND '],
  [/\([A-Z]{2}\)/g, ' '],
  [/[^A-Z0-9 ]/g, ' '],
  [/\bE M C\b/g, 'EMC'],
  [/\bE P A\b/g, 'EPA'],
  [/\bE C C\b/g, 'ECC'],
  [/\b(ELEC|EL)\b/g, 'ELECTRIC'],
  [/\bPWR\b/g, 'POWER'],
  [/\bLT\b/g, 'LIGHT'],
  [/\b(ASSN|ASSOC)\b/g, 'ASSOCIATION'],
  [/\b(COOPERATIVE|CO OP)\b/g, 'COOP'],
  [/\bPUB\b/g, 'PUBLIC'],
  [/\b(SERV|SVC)\b/g, 'SERVICE'],
  [/\bCOMM\b/g, 'COMMISSION'],
  [/\bILLUM\b/g, 'ILLUMINATING'],
  [/\b(UTILITIES|UTIL)\b/g, 'UTILITY'],
  [/\bNM\b/g, 'NEW MEXICO'],
  [/\bNH\b/g, 'NEW HAMPSHIRE'],
  [/\b(INC|INCORPORATED|CO|CORP|CORPORATION|COMPANY|LLC|LTD|THE|OF|AND)\b/g, ' '],
];
/** Words that say what kind of utility it is, not which one: a name needs at least one other word to match. */
const GENERIC = new Set([
  'ELECTRIC',
  'POWER',
  'LIGHT',
  'COOP',
  'EMC',
  'EPA',
  'ECC',
  'REMC',
  'RECC',
  'MEMBER',
  'MEMBERSHIP',
  'ASSOCIATION',
  'RURAL',
  'CITY',
  'TOWN',
  'UTILITY',
  'ENERGY',
  'SYSTEM',
]);

function nameTokens(name: string): string[] {
  let s = name.toUpperCase();
  for (const [re, to] of SYNONYMS) s = s.replace(re, ` ${to} `);
  return s.split(/\s+/).filter(Boolean);
}

interface Candidate {
  u: Utility;
  score: number;
}

/** EIA utilities whose name holds every distinctive word of one of the peer's names, best first. */
function candidates(names: string[], states: string[], utilities: Map<number, Utility>): Candidate[] {
  const wanted = names.map(nameTokens).filter((t) => t.some((w) => !GENERIC.has(w)));
  const out: Candidate[] = [];
  for (const u of utilities.values()) {
    if (!u.ownership || (!WIRES.has(u.ownership) && u.source === 'EIA-861 2018')) continue;
    if (states.length && !states.some((s) => u.states.has(s))) continue;
    const have = new Set(nameTokens(u.name));
    let score = 0;
    for (const t of wanted) {
      if (!t.filter((w) => !GENERIC.has(w)).every((w) => have.has(w))) continue;
      const shared = t.filter((w) => have.has(w)).length;
      score = Math.max(score, shared / (have.size + t.length - shared));
    }
    if (score > 0) out.push({ u, score });
  }
  return out.sort(
    (a, b) =>
      b.score - a.score ||
      total(b.u, states.length ? states : undefined) - total(a.u, states.length ? states : undefined),
  );
}

// ---- the peer registry -----------------------------------------------------------------------------------------

interface Peer {
  id: string;
  name: string;
  adapter: string;
  match: string[];
  config: Record<string, unknown>;
  disabled?: boolean;
  _note?: string;
  _path: string;
  _commit: string;
}

/** "Farmers EC (Greenville, TX)" → "Farmers EC (Greenville)" and [TX]; "(MT/SD)" suffixes disappear. */
function splitName(name: string): { utility: string; states: string[] } {
  const m = /\s*\(([^()]*)\)\s*$/.exec(name);
  const parts = m ? m[1].split(/[/,]/).map((p) => p.trim()) : [];
  const states = parts.filter((p) => /^[A-Z]{2}$/.test(p) && findState(p));
  if (!m || !states.length) return { utility: name, states };
  const rest = parts.filter((p) => !states.includes(p));
  return { utility: name.slice(0, m.index) + (rest.length ? ` (${rest.join(', ')})` : ''), states };
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const trimSlash = (s: string) => s.replace(/\/+$/, '');

/**
 * The peer's adapters our connectors read (pipeline/src/sources/<connector>); adapters absent here are not yet wired.
 * Three single-utility adapters are vendor platforms underneath: PG&E's map is an ArcGIS layer, GVEA runs a
 * Milsoft-style viewer, CLECO's API is SEW SmartCMobile's ServiceAPI (`…/outage/alloutages/2/1`, as OPPD's).
 */
const WIRED: Record<string, string> = {
  kiuc: 'nisc',
  kubra: 'kubra',
  arcgis: 'arcgis',
  milsoft: 'milsoft',
  outageentry: 'outageentry',
  datacapable: 'datacapable',
  ifactor: 'ifactor',
  omap: 'omap',
  pacificorp: 'pacificorp',
  smartc: 'smartc',
  wec: 'wec',
  fpl: 'fpl',
  pge: 'arcgis',
  gvea: 'milsoft',
  cleco: 'smartc',
  puget: 'puget',
  nisource: 'nisource',
  'pge-graphql': 'pgegraphql',
  midamerican: 'midamerican',
  smud: 'smud',
  'idaho-power': 'idahopower',
  tep: 'tep',
  mlgw: 'mlgw',
  nwe: 'nwe',
  'aes-indiana': 'aes',
  'aes-ohio': 'aes',
  teco: 'teco',
  kub: 'kub',
  'clark-pud': 'clarkpud',
  novec: 'novec',
  luma: 'luma',
  anaheim: 'anaheim',
  gridvu: 'gridvu',
  sienatech: 'sienatech',
  duke: 'duke',
  heco: 'heco',
  'el-paso': 'elpaso',
  snopud: 'snopud',
  gmp: 'gmp',
  liberty: 'liberty',
  chugach: 'chugach',
  // the older Milsoft/DataVoice mobile service (OMSMobileService.asmx): config.url is its GetAllCounties URL
  milsoftmobile: 'milsoftmobile',
};

interface Feed {
  connector: string;
  url: string;
  options: Record<string, unknown>;
}

/** The peer's fetch settings as one of our registry rows (url + options, as each connector's README says). */
function feedOf(p: Peer): Feed {
  const c = p.config;
  const base = trimSlash(str(c.base));
  const connector = WIRED[p.adapter] ?? p.adapter;
  const feed = (url: string, options: Record<string, unknown> = {}): Feed => ({ connector, url, options });
  switch (p.adapter) {
    case 'kiuc':
      return feed(`${base}/summary.json`);
    case 'kubra':
      return feed(
        `https://kubra.io/stormcenter/api/v1/stormcenters/${str(c.instance)}/views/${str(c.view)}/currentState?preview=false`,
      );
    case 'arcgis':
      return feed(`${base}/${str(c.layer)}`, arcgisOptions(c));
    case 'pge':
      return feed(`${base}/${str(c.layer)}`, { fields: { customers_out: 'EST_CUSTOMERS', id: 'OUTAGE_ID' } });
    case 'milsoft':
      return feed(`${base}/data/${str(c.file)}`);
    // GVEA's data files have no .json suffix; the milsoft connector reads both forms.
    case 'gvea':
      return feed(`${base}/data/outages`);
    case 'outageentry':
      return feed('https://www.outageentry.com/Outage/ajax/ajaxShellOut.php', {
        client: str(c.client),
        service_index: Number(c.serviceIndex ?? 1),
      });
    case 'ifactor':
      return feed(`${base}/metadata.json`, { reports: c.reports });
    case 'omap':
      return feed(`${base}/api/Omap/Outage/Tabular?opco=${str(c.opco)}`);
    case 'pacificorp':
      return feed(`${base}/etc/pcorp/datafiles/outagemap/map{ST}.json`, { states: c.states });
    case 'wec':
      return feed(`${base}/outagesummary/view/OutageEventJSON`);
    case 'fpl':
      return feed(`${base}/customer/outage/CountyOutages.json`, {
        nw_url: `${base}/northwest/customer/outage/CountyOutages.json`,
      });
    // TEP and UNS Electric share one feed; each row reads its own division's outages.
    case 'tep':
      return feed(str(c.url), { division: str(c.division) || 'TEP' });
    case 'duke':
      return feed(`https://prod.apigee.duke-energy.app/outage-maps/v1/counties?jurisdiction=${str(c.jurisdiction)}`, {
        credential_env: 'OUTAGE_CREDENTIAL_DUKE',
      });
    default: {
      const url = str(c.url) || UNWIRED_URLS[p.adapter];
      if (!url)
        throw new Error(
          `Peer config ${p.id} (adapter ${p.adapter}) has no url and UNWIRED_URLS has none: add one to scripts/registry-overrides.ts`,
        );
      return feed(url);
    }
  }
}

/** The peer's ArcGIS field names → our arcgis connector's options (mode, fields, where). */
function arcgisOptions(c: Record<string, unknown>): Record<string, unknown> {
  const f = (c.fields ?? {}) as Record<string, string>;
  const group = str(c.groupBy);
  const fields: Record<string, string> = {};
  if (f.out) fields.customers_out = f.out;
  if (f.served) fields.customers_served = f.served;
  if (f.etr) fields.etr = f.etr;
  if (f.id) fields.id = f.id;
  // incident detail a row names in our own key names (registry-new-peers.ts rows; the peer's configs have none)
  for (const k of ['cause', 'crew_status', 'started_at'] as const) if (f[k]) fields[k] = f[k];
  // The peer's `name` is whatever area the layer names; only a county or city name has a meaning for us.
  const county = [group, f.name].find((n) => /county/i.test(n ?? ''));
  if (county) fields.county = county;
  else if (/city/i.test(f.name ?? '')) fields.city = f.name;
  // One feature per county with out and served counts: read as counties, not as outage points.
  const perCounty = county !== undefined && f.served !== undefined && group === county;
  return { ...(perCounty ? { mode: 'counties' } : {}), fields, ...(c.where ? { where: c.where } : {}) };
}

// ---- fixtures, map pages, cadence ------------------------------------------------------------------------------

/** The recorded payloads proving the row's connector (`;`-separated): its own first, else the platform's. */
function fixtureOf(p: Peer): string {
  const f = FIXTURES;
  const own = f.own[p.id];
  if (own) return [own].flat().join(';');
  if (p.adapter === 'kubra' && p.config.thematic) return f.kubraThematic;
  if (p.adapter === 'milsoft') return str(p.config.file) === 'outages.json' ? f.milsoftOutages : f.milsoftBoundaries;
  if (p.adapter === 'tep' && p.config.division === 'USE') return 'payloads/tep/uns-sample.json';
  if (f.platform[p.adapter]) return f.platform[p.adapter];
  // Unwired adapters: the peer's sample of that adapter, so the row is ready for its connector.
  const dir = path.join(SHARED, 'payloads', p.adapter);
  const first = fs.existsSync(dir) ? fs.readdirSync(dir).sort()[0] : undefined;
  return first ? `payloads/${p.adapter}/${first}` : '';
}

/**
 * What proves the row (issue 23 part 4): `own` when a real capture of its own feed is a fixture (FIXTURES.own, not a
 * hand-made or edited sample), `platform` when only another utility's real capture of the platform is, else `none`.
 */
function evidenceOf(id: string, fixture: string): string {
  const real = (f: string) => !SAMPLES.has(f);
  const files = fixture.split(';').filter(Boolean);
  if ([FIXTURES.own[id] ?? []].flat().some(real)) return 'own';
  return files.some(real) ? 'platform' : 'none';
}

function mapPageOf(p: Peer): string {
  if (str(p.config.referer)) return str(p.config.referer);
  const base = str(p.config.base);
  const slug = /outagemap-data\.cloud\.coop\/([^/]+)\//.exec(base)?.[1];
  if (slug) return `https://${slug}.outagemap.coop/`; // NISC serves each tenant's map at <slug>.outagemap.coop
  if (p.adapter === 'outageentry')
    return `https://www.outageentry.com/Outage/outage.php?Client=${str(p.config.client)}&serviceIndex=${str(p.config.serviceIndex ?? 1)}`;
  return base ? `${new URL(base).origin}/` : '';
}

/** spec cadence: 5 min for investor-owned ≥ 1M customers, 10 for ≥ 100k, 15 for co-ops, public power and the rest. */
function cadence(customers: number, ownership: string | null): { interval: number; tier: number } {
  const tier = customers >= 1_000_000 ? 1 : customers >= 100_000 ? 2 : 3;
  if (ownership !== 'Investor Owned') return { interval: 15, tier };
  return { interval: customers >= 1_000_000 ? 5 : customers >= 100_000 ? 10 : 15, tier };
}

// ---- rows ------------------------------------------------------------------------------------------------------

interface Built {
  row: Row;
  eia: Utility[];
  states: string[];
  customers: number;
  why: string;
  gapUnexplained: boolean;
}

function statusOf(p: Peer): { status: string; reason: string } {
  const o = OVERRIDES[p.id];
  if (o?.gated) return { status: 'gated', reason: o.gated };
  if (p.disabled || o?.disabled)
    return { status: 'disabled', reason: o?.disabled ?? 'parked by the peer (disabled: true)' };
  if (GATED[p.adapter]) return { status: 'gated', reason: GATED[p.adapter] };
  if (p.config.requiresSecret)
    return { status: 'gated', reason: "the feed needs a secret (the peer's requiresSecret)" };
  if (!WIRED[p.adapter]) return { status: 'disabled', reason: `not yet wired: no connector for ${p.adapter}` };
  return { status: 'active', reason: '' };
}

/** States where the utilities have customers, most customers first (territory states when none has customers). */
function statesOf(eia: Utility[]): string[] {
  const by = new Map<string, number>();
  for (const u of eia) for (const s of u.states) by.set(s, (by.get(s) ?? 0) + (u.customers.get(s) ?? 0));
  const withCustomers = [...by].filter(([, n]) => n > 0);
  return (withCustomers.length ? withCustomers : [...by]).sort((a, b) => b[1] - a[1]).map(([s]) => s);
}

function buildRow(p: Peer, utilities: Map<number, Utility>, explain: boolean): Built {
  const { utility, states: named } = splitName(p.name);
  const o = OVERRIDES[p.id] ?? {};
  const found = o.eia ? [] : candidates([...p.match, utility], o.states ?? named, utilities);
  const eia = o.eia
    ? o.eia.map((id) => utilities.get(id) ?? fail(`${p.id}: EIA-861 2018 has no utility number ${id}; fix OVERRIDES`))
    : found.slice(0, 1).map((c) => c.u);
  if (!eia.length)
    fail(
      `No EIA-861 2018 utility matches ${p.id} (${p.match.join(' | ')}): add its eia to OVERRIDES in scripts/registry-overrides.ts`,
    );
  const eiaStates = new Set(eia.flatMap((u) => [...u.states]));
  const states = (o.states ?? (named.length ? named : statesOf(eia))).filter((s) => eiaStates.has(s));
  if (!states.length)
    fail(
      `${p.id}: none of the states ${(o.states ?? named).join(';')} is an EIA-861 state of ${eia.map((u) => u.id).join(';')}`,
    );
  const customers = eia.reduce((s, u) => s + total(u, states), 0);
  const largest = [...eia].sort((a, b) => total(b, states) - total(a, states))[0];
  const { interval, tier } = cadence(customers, largest.ownership);
  const feed = o.feed ? { options: {}, ...o.feed } : feedOf(p);
  const referer = str(p.config.referer);
  const options: Record<string, unknown> = { ...feed.options, ...o.options, ...(referer ? { referer } : {}) };
  if (options.fields && Object.keys(options.fields).length === 0) delete options.fields;
  const { status, reason } = statusOf(p);
  const served = Number(p.config.servedTotal ?? NaN);
  const gap = Number.isFinite(served) && customers > 0 ? served / customers - 1 : 0;
  const gapText =
    Math.abs(gap) > GAP_LIMIT
      ? `customers differ from the peer's servedTotal ${served.toLocaleString('en-US')} by ${gap > 0 ? '+' : ''}${Math.round(gap * 100)} %${o.gap ? `: ${o.gap}` : ''}`
      : '';
  if (explain) {
    const shown = found
      .slice(0, 4)
      .map((c) => `${c.u.id} ${c.u.name} ${total(c.u, states)} (${[...c.u.states].join(';')}) ${c.score.toFixed(2)}`);
    console.log(
      `${p.id} [${states.join(';')}] eia=${eia.map((u) => u.id).join(';')} customers=${customers} served=${str(p.config.servedTotal)}${gapText ? ' GAP' : ''} :: ${shown.join(' | ')}`,
    );
  }
  const row: Row = {
    id: p.id,
    utility,
    state: states.join(';'),
    connector: feed.connector,
    url: feed.url,
    interval_min: String(interval),
    tier: String(tier),
    options: Object.keys(options).length ? JSON.stringify(options) : '',
    customers: String(customers),
    eia_id: eia.map((u) => u.id).join(';'),
    platform: o.feed?.connector ?? platformOf(p),
    customers_source: [...new Set(eia.map((u) => u.source))].join('; '),
    map_page: mapPageOf(p),
    provenance: o.provenance ?? `outage-atlas ${p._path}@${p._commit.slice(0, 7)}; EIA-861 2018`,
    status,
    status_reason: [reason, gapText].filter(Boolean).join('; '),
    fixture: fixtureOf(p),
    evidence: '',
    territory_extra: Object.keys(o.territory_extra ?? {}).join(';'),
  };
  row.evidence = evidenceOf(p.id, row.fixture);
  return { row, eia, states, customers, why: reason, gapUnexplained: gapText !== '' && !o.gap };
}

/** The vendor platform: the connector's name for wired adapters (the peer's kiuc is NISC's map), else the adapter. */
const platformOf = (p: Peer): string => WIRED[p.adapter] ?? p.adapter;

function fail(message: string): never {
  throw new Error(message);
}

function odinRow(): Row {
  return {
    id: 'odin',
    utility: 'ORNL ODIN (meters, national baseline)',
    state: US_STATES.join(';'),
    connector: 'odin',
    url: ODIN_URL,
    interval_min: '15',
    tier: '1',
    options: '',
    customers: '',
    eia_id: '',
    platform: 'odin',
    customers_source: '',
    map_page: 'https://ornl.opendatasoft.com/explore/dataset/odin-real-time-outages-county/',
    provenance: 'ORNL ODIN on OpenDataSoft, dataset odin-real-time-outages-county (export endpoint)',
    status: 'active',
    status_reason: '',
    fixture: 'payloads/odin/odin-records-sample.json',
    evidence: 'own',
    territory_extra: '',
  };
}

// ---- checks ----------------------------------------------------------------------------------------------------

function check(built: Built[], rows: Row[]): void {
  const ids = new Set<string>();
  for (const r of rows) {
    if (ids.has(r.id)) fail(`id ${r.id} appears twice`);
    ids.add(r.id);
    if (!/^https?:\/\//.test(r.url) || /example\.(com|org|net)|\b[A-Z]+_ID\b/.test(r.url))
      fail(`${r.id}: url ${r.url} is not a real absolute URL`);
    if (r.url.startsWith('http://') && !(r.options && JSON.parse(r.options).plain_http))
      fail(
        `${r.id}: url ${r.url} is plain http; say why in its options.plain_http (pipeline/src/sources/transport.ts)`,
      );
    for (const f of r.fixture.split(';').filter(Boolean))
      if (!fs.existsSync(path.join(SHARED, f))) fail(`${r.id}: fixture ${f} does not exist under ${SHARED}`);
  }
  const owner = new Map<number, string>();
  for (const b of built) {
    if (b.row.status !== 'active') continue;
    for (const u of b.eia) {
      if (owner.has(u.id))
        fail(`EIA utility ${u.id} (${u.name}) is in two active rows: ${owner.get(u.id)} and ${b.row.id}`);
      owner.set(u.id, b.row.id);
    }
  }
}

// ---- coverage and outputs --------------------------------------------------------------------------------------

interface Uncovered {
  eia_id: number;
  utility: string;
  states: string;
  customers: number;
  reason: string;
}

/** The largest wires utilities with no active row of their own, and why (gated, not yet wired, no feed known). */
function uncovered(built: Built[], utilities: Map<number, Utility>, limit: number): Uncovered[] {
  const covered = new Set(built.filter((b) => b.row.status === 'active').flatMap((b) => b.eia.map((u) => u.id)));
  const inactive = new Map(
    built.filter((b) => b.row.status !== 'active').flatMap((b) => b.eia.map((u) => [u.id, b] as const)),
  );
  return [...utilities.values()]
    .filter((u) => u.ownership && WIRES.has(u.ownership) && !covered.has(u.id))
    .sort((a, b) => total(b) - total(a))
    .slice(0, limit)
    .map((u) => {
      const b = inactive.get(u.id);
      let reason = 'no public feed known: not in the peer registry';
      if (b)
        reason = `${b.row.status === 'gated' ? 'gated: ' : /^not yet wired/.test(b.why) ? '' : 'disabled: '}${b.why} (row ${b.row.id})`;
      return { eia_id: u.id, utility: u.name, states: statesOf([u]).join(';'), customers: total(u), reason };
    });
}

/** A gated row that only wants a credential: its options name the variable that makes it active (credentialEnv). */
const credentialed = (b: Built): boolean =>
  b.row.status === 'gated' && b.row.options !== '' && typeof JSON.parse(b.row.options).credential_env === 'string';

/**
 * Customers per state covered by own feeds without credentials (active rows) and with every credential the registry
 * names (active rows and the credentialed gated ones), as `outage coverage` counts them.
 */
function stateCoverage(
  built: Built[],
  stateCustomers: Map<string, number>,
): Array<{ state: string; customers: number; covered: number; coveredWithCredentials: number }> {
  const sum = (rows: Built[]) => {
    const by = new Map<string, number>();
    for (const b of rows)
      for (const u of b.eia) for (const s of b.states) by.set(s, (by.get(s) ?? 0) + (u.customers.get(s) ?? 0));
    return by;
  };
  const covered = sum(built.filter((b) => b.row.status === 'active'));
  const withCredentials = sum(built.filter((b) => b.row.status === 'active' || credentialed(b)));
  return US_STATES.map((state) => ({
    state,
    customers: stateCustomers.get(state) ?? 0,
    covered: covered.get(state) ?? 0,
    // as coverage.ts: never more than the state's customers (HI's three companies exceed EIA's state total)
    coveredWithCredentials: Math.min(
      withCredentials.get(state) ?? 0,
      Math.max(stateCustomers.get(state) ?? 0, covered.get(state) ?? 0),
    ),
  }));
}

/** Active rows per platform by evidence, most rows first, with a total line. */
function evidenceTable(active: Row[]): string[] {
  const by = new Map<string, Record<string, number>>();
  for (const r of active) {
    const e = by.get(r.platform) ?? { own: 0, platform: 0, none: 0 };
    e[r.evidence] += 1;
    by.set(r.platform, e);
  }
  const all = { own: 0, platform: 0, none: 0 } as Record<string, number>;
  for (const e of by.values()) for (const k of Object.keys(all)) all[k] += e[k];
  const line = (name: string, e: Record<string, number>) => `| ${name} | ${e.own} | ${e.platform} | ${e.none} |`;
  const rows = [...by].sort((a, b) => b[1].own + b[1].platform + b[1].none - (a[1].own + a[1].platform + a[1].none));
  return [...rows.map(([p, e]) => line(p, e)), line('**all**', all)];
}

/** Hosts that carry five or more active rows, most first. */
function hostsOf(rows: Row[]): Array<[string, number]> {
  const by = new Map<string, number>();
  for (const r of rows) by.set(new URL(r.url).host, (by.get(new URL(r.url).host) ?? 0) + 1);
  return [...by].filter(([, n]) => n >= 5).sort((a, b) => b[1] - a[1]);
}

const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
const fmt = (n: number) => n.toLocaleString('en-US');

/** Rewrites the part of data/sources.md between the generated markers, so the figures there cannot drift. */
function writeDocs(summary: string): void {
  const file = path.join(ROOT, 'data/sources.md');
  const [start, end] = [
    '<!-- generated by scripts/build-registry.ts: start -->',
    '<!-- generated by scripts/build-registry.ts: end -->',
  ];
  const text = fs.readFileSync(file, 'utf8');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) fail(`data/sources.md lacks the markers ${start} … ${end}`);
  fs.writeFileSync(file, `${text.slice(0, a + start.length)}\n${summary}\n${text.slice(b)}`);
}

function main(): void {
  const explain = process.argv.includes('--explain');
  const { utilities, stateCustomers } = loadEia();
  const usCustomers = US_STATES.reduce((sum, s) => sum + (stateCustomers.get(s) ?? 0), 0);
  const peers: Peer[] = fs
    .readFileSync(path.join(SHARED, PEER_FILE), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  peers.push(...(NEW_PEERS as Peer[])); // utilities the peer does not list, with their public sources
  // Rows the peer has no entry for: a second feed of a utility it lists (EXTRA_ROWS), built from that entry.
  for (const [id, from] of Object.entries(EXTRA_ROWS)) {
    const peer = peers.find((p) => p.id === from) ?? fail(`EXTRA_ROWS.${id}: no peer entry ${from}`);
    peers.push({ ...peer, id });
  }
  const built = peers.map((p) => buildRow(p, utilities, explain));
  const rows = [...built.map((b) => b.row), odinRow()].sort((a, b) => a.id.localeCompare(b.id));
  check(built, rows);
  fs.writeFileSync(path.join(ROOT, 'data/sources.csv'), stringify(rows, { header: true, columns: [...COLUMNS] }));
  const gaps = uncovered(built, utilities, 20);
  fs.writeFileSync(
    path.join(ROOT, 'data/uncovered-utilities.csv'),
    stringify(gaps, { header: true, columns: ['eia_id', 'utility', 'states', 'customers', 'reason'] }),
  );

  const active = rows.filter((r) => r.status === 'active');
  const deep = built.filter((b) => b.row.status === 'active');
  const byPlatform = new Map<string, { rows: number; customers: number }>();
  for (const r of active) {
    const e = byPlatform.get(r.platform) ?? { rows: 0, customers: 0 };
    byPlatform.set(r.platform, { rows: e.rows + 1, customers: e.customers + Number(r.customers || 0) });
  }
  const states = stateCoverage(built, stateCustomers).sort(
    (a, b) => b.customers - b.covered - (a.customers - a.covered),
  );
  // The share counts the 50 states and DC on both sides: a territory's row (LUMA, Puerto Rico) is not in the numerator.
  const covered = states.reduce((s, x) => s + x.covered, 0);
  const coveredWithCredentials = states.reduce((s, x) => s + x.coveredWithCredentials, 0);
  const keyed = built.filter(credentialed);
  const keyEnv = [...new Set(keyed.map((b) => JSON.parse(b.row.options).credential_env as string))].sort();
  const lines = [
    `Rows: ${rows.length} (${active.length} active, ${rows.filter((r) => r.status === 'gated').length} gated, ${rows.filter((r) => r.status === 'disabled').length} disabled).`,
    '',
    '| platform | active rows | customers (EIA-861 2018) |',
    '| --- | ---: | ---: |',
    ...[...byPlatform]
      .sort((a, b) => b[1].customers - a[1].customers)
      .map(([p, e]) => `| ${p} | ${e.rows} | ${p === 'odin' ? '(baseline, meters)' : fmt(e.customers)} |`),
    '',
    'What proves each active row is read right (the `evidence` column above): `own` — a real capture of',
    "the row's own feed is one of its fixtures; `platform` — only another utility's real capture of the same platform;",
    '`none` — only a hand-made or edited sample.',
    '',
    '| platform | own | platform | none |',
    '| --- | ---: | ---: | ---: |',
    ...evidenceTable(active),
    '',
    'Own-feed coverage, in the 50 states and DC, two ways (`outage coverage` and `/api/v1/coverage` report both):',
    '',
    `- **without credentials**: customers of the ${deep.length} active deep rows (utilities' own feeds; gated rows not covered): ${fmt(covered)} of ${fmt(usCustomers)} US customers = **${pct(covered, usCustomers)}**;`,
    `- **with every credential the registry names** (${keyEnv.map((e) => `\`${e}\``).join(', ') || 'none'}): also the ${keyed.length} gated rows that only want it (${keyed.map((b) => b.row.id).join(', ') || 'none'}): ${fmt(coveredWithCredentials)} = **${pct(coveredWithCredentials, usCustomers)}**.`,
    '',
    'Largest gaps by state (customers without an active deep row), with both figures:',
    '',
    '| state | customers | own feeds, no credentials | share | own feeds, with credentials | share |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...states
      .slice(0, 10)
      .map(
        (s) =>
          `| ${s.state} | ${fmt(s.customers)} | ${fmt(s.covered)} | ${pct(s.covered, s.customers)} | ${fmt(s.coveredWithCredentials)} | ${pct(s.coveredWithCredentials, s.customers)} |`,
      ),
    '',
    'Hosts shared by five or more active rows (the scheduler polls each host with limited concurrency):',
    '',
    ...hostsOf(active).map(([h, n]) => `- \`${h}\`: ${n} rows`),
    '',
    'The 20 largest EIA-861 utilities without an active row (also `data/uncovered-utilities.csv`; Puerto Rico is listed,',
    'the national share above counts the 50 states and DC):',
    '',
    '| eia_id | utility | states | customers | reason |',
    '| --- | --- | --- | ---: | --- |',
    ...gaps.map((g) => `| ${g.eia_id} | ${g.utility} | ${g.states} | ${fmt(g.customers)} | ${g.reason} |`),
  ];
  writeDocs(lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(
    `\nDenominator: Sales_Ult_Cust_2018.xlsx, sheet States, TOTAL Customers (Count) column = residential + commercial + industrial + transportation, parts A, C and D, all utilities and all 50 states + DC, without Part B (energy-only: the same meters as Part C) and without Behind the Meter rows.`,
  );
  const unexplained = built.filter((b) => b.gapUnexplained).map((b) => b.row.id);
  if (unexplained.length)
    console.warn(
      `\nRows whose customers differ from the peer's servedTotal by more than 35 % without an explanation in OVERRIDES: ${unexplained.join(', ')}`,
    );
}

main();
