// Per-connector cost on real recorded payloads: JSON.parse of the raw text vs JSON.parse + normalize (issue 12 part 4).
// A composite raw (fetch combines several answers) is assembled from the files' own bytes, so nothing is re-serialised.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { connectorFor } from '../pipeline/src/sources/connectors.ts';
import type { ConnectorName, SourceDef } from '../pipeline/src/sources/source-def.ts';
import { sharedPath, sourceDef } from '../pipeline/test/shared-data.ts';

export interface Row {
  connector: string;
  payload: string;
  bytes: number;
  parse_us: number;
  parse_normalize_us: number;
  ratio: number;
}

export interface Case {
  connector: ConnectorName;
  payload: string;
  source: Partial<SourceDef>;
  /** the raw text as fetch hands it over (before JSON.parse) */
  text: () => string;
  /** a feed that is not JSON (AES's XML): the parse its connector cannot avoid, timed in place of JSON.parse */
  parse?: (text: string) => unknown;
  /** and the raw its fetch returns for that text (default: JSON.parse of it) */
  raw?: (text: string) => unknown;
}

const file = (rel: string): string => readFileSync(sharedPath(rel), 'utf8');
/** `{"a":<bytes of file A>,"b":…}` — a composite raw built from the recorded bytes. */
const compose = (parts: Record<string, string>): string =>
  `{${Object.entries(parts)
    .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
    .join(',')}}`;
/** A scraper-flattened array of ArcGIS attributes, back in the query answer's shape. */
const arcgisFeatures = (rel: string): string =>
  JSON.stringify({ features: (JSON.parse(file(rel)) as unknown[]).map((attributes) => ({ attributes })) });
const bundlePart = (rel: string, key: string): string =>
  JSON.stringify((JSON.parse(file(rel)) as Record<string, Record<string, unknown>>)[key]);
const flint = (name: string): string => file(`payloads/milsoft/flint-emc-${name}-2026-10-10T1053Z.json`);
const CONED = 'payloads/ifactor/coned-bundle-2026-10-08T1905Z.json';

export const CASES: Case[] = [
  {
    connector: 'kubra',
    payload: 'kubra/dominion-report.json',
    source: { utility: 'Dominion Energy', states: ['VA', 'NC'] },
    text: () => compose({ report: file('payloads/kubra/dominion-report.json') }),
  },
  {
    connector: 'arcgis',
    payload: 'pge-arcgis-points-mar-2024/0032.json',
    source: { utility: 'PG&E', states: ['CA'] },
    text: () => arcgisFeatures('sequences/pge-arcgis-points-mar-2024/0032.json'),
  },
  {
    connector: 'arcgis',
    payload: 'arcgis/sceg-county-layer-2017.json',
    source: {
      states: ['SC'],
      options: {
        mode: 'counties',
        fields: { county_fips: 'FIPS', county: 'NAME', customers_out: 'NO_OUTAGES', customers_served: 'NO_CUSTOMERS' },
      },
    },
    text: () => arcgisFeatures('payloads/arcgis/sceg-county-layer-2017.json'),
  },
  {
    connector: 'datacapable',
    payload: 'datacapable/centerpoint-tx-bundle',
    source: { utility: 'CenterPoint Houston', states: ['TX'] },
    text: () => bundlePart('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json', 'reports'),
  },
  {
    connector: 'fpl',
    payload: 'fpl-storm-ian-2022/0049.json',
    source: { utility: 'Florida Power & Light', states: ['FL'] },
    text: () => file('sequences/fpl-storm-ian-2022/0049.json'),
  },
  {
    connector: 'fpl',
    payload: 'fpl-county-ian-2022/0106.json',
    source: { utility: 'Florida Power & Light', states: ['FL'] },
    text: () => file('sequences/fpl-county-ian-2022/0106.json'),
  },
  {
    connector: 'ifactor',
    payload: 'ifactor/coned-bundle',
    source: { utility: 'Con Edison', states: ['NY'] },
    text: () =>
      compose({
        directory: '"2026_10_08_19_05_00"',
        summary: bundlePart(CONED, 'summary'),
        reports: `[${bundlePart(CONED, 'nyc')},${bundlePart(CONED, 'westchester')}]`,
      }),
  },
  {
    connector: 'ifactor',
    payload: 'ifactor-thematic/georgiapower-2017-11.json',
    source: { utility: 'Georgia Power', states: ['GA'] },
    text: () => compose({ thematic: file('payloads/ifactor-thematic/georgiapower-2017-11.json') }),
  },
  {
    connector: 'milsoft',
    payload: 'milsoft/flint-emc outages + summary',
    source: { utility: 'Flint Energies', states: ['GA'] },
    text: () => compose({ summary: flint('outagesummary'), outages: flint('outages') }),
  },
  {
    connector: 'milsoft',
    payload: 'milsoft/flint-emc boundaries + summary',
    source: { utility: 'Flint Energies', states: ['GA'] },
    text: () => compose({ summary: flint('outagesummary'), boundaries: flint('boundaries') }),
  },
  {
    connector: 'nisc',
    payload: 'kiuc/summary.json',
    source: { utility: 'KIUC', states: ['HI'] },
    text: () => file('payloads/kiuc/summary.json'),
  },
  {
    connector: 'odin',
    payload: 'odin/odin-records-sample.json',
    source: { utility: 'ODIN', states: ['OH'] },
    text: () => file('payloads/odin/odin-records-sample.json'),
  },
  {
    connector: 'omap',
    payload: 'omap/sample.json (edited values)',
    source: { utility: 'PPL Electric Utilities', states: ['PA'] },
    text: () => file('payloads/omap/sample.json'),
  },
  {
    connector: 'outageentry',
    payload: 'outageentry/sample.json (edited values)',
    source: { utility: 'Shenandoah Valley EC', states: ['VA'] },
    text: () => file('payloads/outageentry/sample.json'),
  },
  {
    connector: 'pacificorp',
    payload: 'pacificorp/rmp-maplistUT peak',
    source: { utility: 'Rocky Mountain Power', states: ['UT'] },
    text: () => {
      const both = file('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json');
      const states = `[{"state":"UT","map":${both},"list":${both}}]`;
      return compose({ captured_at: '"2024-03-03T00:45:00.000Z"', states });
    },
  },
  {
    connector: 'smartc',
    payload: 'smartc/oppd-serviceapi-bundle',
    source: { utility: 'Omaha Public Power District', states: ['NE'] },
    text: () => bundlePart('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json', 'reports'),
  },
  {
    connector: 'wec',
    payload: 'wec/we-energies-latest',
    source: { utility: 'We Energies', states: ['WI', 'MI'] },
    text: () => file('payloads/wec/we-energies-latest-2026-07-27T2113Z.json'),
  },
  {
    connector: 'puget',
    payload: 'puget/pse-outages-2026-03-13',
    source: { utility: 'Puget Sound Energy', states: ['WA'] },
    text: () => file('payloads/puget/pse-outages-2026-03-13T2218Z.json'),
  },
  {
    connector: 'nisource',
    payload: 'nisource/sample.json (trimmed real)',
    source: { utility: 'NIPSCO', states: ['IN'] },
    text: () => file('payloads/nisource/sample.json'),
  },
  {
    connector: 'pgegraphql',
    payload: 'pge-graphql/sample.json (edited values)',
    source: { utility: 'Portland General Electric', states: ['OR'] },
    text: () => file('payloads/pge-graphql/sample.json'),
  },
  {
    connector: 'midamerican',
    payload: 'midamerican/sample.json (hand-made)',
    source: { utility: 'MidAmerican Energy', states: ['IA', 'IL', 'SD'] },
    text: () => file('payloads/midamerican/sample.json'),
  },
  {
    connector: 'smud',
    payload: 'smud/sample.json (edited values)',
    source: { utility: 'SMUD', states: ['CA'] },
    text: () => file('payloads/smud/sample.json'),
  },
  {
    connector: 'idahopower',
    payload: 'idaho-power/sample.json (edited values)',
    source: { utility: 'Idaho Power', states: ['ID', 'OR'] },
    text: () => file('payloads/idaho-power/sample.json'),
  },
  {
    connector: 'mlgw',
    payload: 'mlgw/sample.json (edited values)',
    source: { utility: 'Memphis Light, Gas & Water', states: ['TN'] },
    text: () => file('payloads/mlgw/sample.json'),
  },
  {
    connector: 'tep',
    payload: 'tep/sample.json (edited values)',
    source: { utility: 'Tucson Electric Power', states: ['AZ'] },
    text: () => compose({ captured_at: '"2026-06-24T20:00:00.000Z"', answer: file('payloads/tep/sample.json') }),
  },
  {
    connector: 'nwe',
    payload: 'nwe/sample.json (edited values)',
    source: { utility: 'NorthWestern Energy', states: ['MT', 'SD'] },
    text: () => JSON.stringify({ d: file('payloads/nwe/sample.json') }),
  },
  {
    connector: 'aes',
    payload: 'aes-indiana/sample.xml (edited values)',
    source: { utility: 'AES Indiana', states: ['IN'], url: 'https://myaccount.aesindiana.com/OMSDATA/OMSDATA_OSI.xml' },
    text: () => file('payloads/aes-indiana/sample.xml'),
    parse: (xml) => new XMLParser({ ignoreAttributes: true, parseTagValue: false }).parse(xml),
    raw: (xml) => ({ format: 'indiana', xml }),
  },
  {
    connector: 'aes',
    payload: 'aes-ohio/sample.xml (edited values)',
    source: { utility: 'AES Ohio', states: ['OH'], url: 'https://myprofile.aes-ohio.com/DATA/DPLOMSDATA.xml' },
    text: () => file('payloads/aes-ohio/sample.xml'),
    parse: (xml) => new XMLParser({ ignoreAttributes: true, parseTagValue: false }).parse(xml),
    raw: (xml) => ({ format: 'ohio', xml }),
  },
  {
    connector: 'teco',
    payload: 'teco/sample.json (hand-made)',
    source: { utility: 'Tampa Electric', states: ['FL'] },
    text: () => file('payloads/teco/sample.json'),
  },
  {
    connector: 'kub',
    payload: 'kub/sample.json (edited values)',
    source: { utility: 'Knoxville Utilities Board', states: ['TN'] },
    text: () => file('payloads/kub/sample.json'),
  },
  {
    connector: 'clarkpud',
    payload: 'clark-pud/sample.json (edited values)',
    source: { utility: 'Clark Public Utilities', states: ['WA'] },
    text: () => bundlePart('payloads/clark-pud/sample.json', 'result'),
  },
  {
    connector: 'novec',
    payload: 'novec/sample.xml (edited values)',
    source: { utility: 'NOVEC', states: ['VA'] },
    text: () => file('payloads/novec/sample.xml'),
    parse: (xml) => new XMLParser({ ignoreAttributes: false, parseAttributeValue: false }).parse(xml),
    raw: (xml) => xml,
  },
  {
    connector: 'luma',
    payload: 'luma/sample.json (hand-made)',
    source: { utility: 'LUMA', states: ['PR'] },
    text: () => file('payloads/luma/sample.json'),
  },
  {
    connector: 'anaheim',
    payload: 'anaheim/sample.json (edited values)',
    source: { utility: 'Anaheim Public Utilities', states: ['CA'] },
    text: () => file('payloads/anaheim/sample.json'),
  },
  {
    connector: 'gridvu',
    payload: 'gridvu/sample.json (edited values)',
    source: { utility: 'Lansing Board of Water & Light', states: ['MI'] },
    text: () => file('payloads/gridvu/sample.json'),
  },
  {
    connector: 'sienatech',
    payload: 'sienatech/sample.xml (edited values)',
    source: { utility: 'United Power', states: ['CO'] },
    text: () => file('payloads/sienatech/sample.xml'),
    parse: (xml) => new XMLParser({ ignoreAttributes: true, parseTagValue: false }).parse(xml),
    raw: (xml) => xml,
  },
  {
    connector: 'gmp',
    payload: 'gmp/sample.json (edited values)',
    source: { utility: 'Green Mountain Power', states: ['VT'] },
    text: () => file('payloads/gmp/sample.json'),
  },
  {
    connector: 'liberty',
    payload: 'liberty/sample.json (edited values)',
    source: { utility: 'Liberty Utilities — Empire District', states: ['MO', 'AR', 'KS', 'OK'] },
    text: () => file('payloads/liberty/sample.json'),
  },
  {
    connector: 'chugach',
    payload: 'chugach/sections.json (edited values)',
    source: { utility: 'Chugach Electric', states: ['AK'] },
    text: () => file('payloads/chugach/sections.json'),
  },
  {
    connector: 'milsoftmobile',
    payload: 'milsoft-asmx GetAllCounties + GetAllOutages (York Electric)',
    source: { utility: 'York Electric Cooperative', states: ['SC', 'NC'] },
    // the two answers' texts as fetch returns them, in one JSON text so the case has one `text`
    text: () =>
      JSON.stringify({
        counties: file('payloads/milsoft-asmx/GetAllCounties.xml'),
        outages: file('payloads/milsoft-asmx/GetAllOutages-york.xml'),
      }),
    parse: (both) => {
      const { counties, outages } = JSON.parse(both) as Record<string, string>;
      const parser = new XMLParser({ ignoreAttributes: true, parseTagValue: false });
      return [parser.parse(counties), parser.parse(outages)];
    },
  },
];

/** CPU time of one measured round, in ms: long enough that one young-generation collection does not decide a round,
 * short enough that both halves of a pair see the same machine load. */
const ROUND_MS = 10;
/** Warm-up per case, in ms of each function: the JIT settles, and the memos a connector keeps across polls fill as
 * they do after the first poll in production. */
const WARM_MS = 150;

/** CPU µs per call of `fn`, one round of `n` calls: CPU time, not wall time, so that other processes on the machine
 * (a busy 2-core box runs at load 5–15) do not count against the connector. */
function roundUs(fn: () => void, n: number): number {
  const s = process.cpuUsage();
  for (let i = 0; i < n; i++) fn();
  const d = process.cpuUsage(s);
  return (d.user + d.system) / n;
}

/**
 * Warms `a` and `b` up for about `ms` each (and at least 10 calls each), alternately as they are then measured: a
 * warm-up of JSON.parse alone first left V8's heap tuned (allocation-site pretenuring) to a pattern the measured
 * rounds do not have, and put the large payloads' ratios 0.3–0.6 higher. Returns how many calls of each fill a round.
 */
function warmUp(a: () => void, b: () => void, ms: number): [number, number] {
  const calls = [0, 0];
  const us = [0, 0];
  while (us[0] < ms * 1000 || us[1] < ms * 1000 || calls[0] < 10 || calls[1] < 10) {
    us[0] += roundUs(a, 1);
    us[1] += roundUs(b, 1);
    calls[0] += 1;
    calls[1] += 1;
  }
  const round = (k: number) => Math.max(1, Math.round((ROUND_MS * 1000 * calls[k]) / us[k]));
  return [round(0), round(1)];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Medians of `a` and `b` and of their ratio, over at least 25 pairs of rounds. The halves of a pair run back to
 * back, in alternating order (so neither always pays the other's garbage), and the ratio is taken per pair, so both
 * see the same machine load: other work on a shared 2-core machine moves single figures by ±30 %.
 */
function paired(a: () => void, b: () => void, budgetMs: number): { aUs: number; bUs: number; ratio: number } {
  const [na, nb] = warmUp(a, b, WARM_MS);
  const as: number[] = [];
  const bs: number[] = [];
  const end = performance.now() + budgetMs;
  while (performance.now() < end || as.length < 25) {
    if (as.length % 2 === 0) {
      as.push(roundUs(a, na));
      bs.push(roundUs(b, nb));
    } else {
      bs.push(roundUs(b, nb));
      as.push(roundUs(a, na));
    }
  }
  return { aUs: median(as), bUs: median(bs), ratio: median(bs.map((x, i) => x / as[i])) };
}

/** One case measured in this process. */
export function measureCase(c: Case, budgetMs: number): Row {
  const text = c.text();
  const source = sourceDef({ ...c.source, connector: c.connector });
  const { normalize } = connectorFor(c.connector);
  const parse = c.parse ?? JSON.parse;
  const raw = c.raw ?? JSON.parse;
  normalize(raw(text), source); // throws here, before timing, when a payload no longer normalises
  let sink = 0;
  const t = paired(
    () => {
      sink += (parse(text) as object) ? 1 : 0;
    },
    () => {
      sink += normalize(raw(text), source).customers_out ?? 0;
    },
    budgetMs,
  );
  if (sink < 0) throw new Error('unreachable: keeps the timed work observable');
  return {
    connector: c.connector,
    payload: c.payload,
    bytes: Buffer.byteLength(text),
    parse_us: Math.round(t.aUs * 10) / 10,
    parse_normalize_us: Math.round(t.bUs * 10) / 10,
    ratio: Math.round(t.ratio * 100) / 100,
  };
}

/**
 * Case `index` measured in a fresh process (started as this one was, so under tsx too). Cases measured one after
 * another in one process skew each other: after the Kubra report's loop the same process parsed the FPL county list
 * 1.6× slower and normalised it 2× slower, so the order of the cases decided their ratios; in its own process a
 * case's ratio repeats within about ±0.05.
 */
function inFreshProcess(index: number, budgetMs: number): Row {
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--case', `${index}`],
    {
      env: { ...process.env, BENCH_CONNECTOR_MS: String(budgetMs) },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as Row;
}

/** The run of median ratio (runs of one case, in fresh processes). */
const medianRow = (runs: Row[]): Row => [...runs].sort((a, b) => a.ratio - b.ratio)[Math.floor(runs.length / 2)];

/**
 * Every case, or only `BENCH_CONNECTOR`'s, each in its own process: `BENCH_CONNECTOR_MS` is the measuring time per
 * case (default 600 ms), `BENCH_CONNECTOR_RUNS` the processes per case whose median is reported (default 1).
 */
export async function benchConnectors(
  budgetMs = Number(process.env.BENCH_CONNECTOR_MS ?? 600),
  runs = Number(process.env.BENCH_CONNECTOR_RUNS ?? 1),
): Promise<Row[]> {
  const only = process.env.BENCH_CONNECTOR;
  const rows: Row[] = [];
  CASES.forEach((c, i) => {
    if (only && c.connector !== only) return;
    rows.push(medianRow(Array.from({ length: Math.max(1, runs) }, () => inFreshProcess(i, budgetMs))));
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--case');
  if (at > 0)
    console.log(
      JSON.stringify(measureCase(CASES[Number(process.argv[at + 1])], Number(process.env.BENCH_CONNECTOR_MS ?? 600))),
    );
  else console.table(await benchConnectors());
}
