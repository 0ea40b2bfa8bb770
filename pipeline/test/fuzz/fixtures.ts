// Fuzz fixtures: for every connector, registry rows and the loopback routes that serve its real recorded payloads
// (../shared/data) the way its fetch test does. The fuzz mutates one route's answer per case.
import { parse } from 'csv-parse/sync';
import { readFileSync } from 'node:fs';
import type { ConnectorName } from '../../src/sources/source-def.ts';
import { sharedJson, sharedPath } from '../shared-data.ts';
import { recordedRaw as avangridRaw } from '../../src/sources/avangrid/recorded.ts';
import { recordedRaw as dukeRaw } from '../../src/sources/duke/recorded.ts';

/** One answer as the upstream sends it: JSON (which the fuzz mutates) or fixed text. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

export interface Route {
  /** the path the route answers (query ignored), unique across fixtures */
  path: string;
  method?: 'POST';
  answer: (url: URL) => Answer;
}

export interface FixtureRow {
  id: string;
  utility: string;
  state: string;
  /** path (with query) under the upstream's base URL */
  path: string;
  /** registry options; `{base}` in a string stands for the upstream's base URL */
  options?: Record<string, unknown>;
  /** the registry's EIA customers, for the quarantine bound (some rows have it, some not: both rules are fuzzed) */
  customers?: number;
}

export interface Fixture {
  connector: ConnectorName;
  rows: FixtureRow[];
  routes: Route[];
}

const json = (v: unknown): Answer => ({ json: v });
const once = <T>(load: () => T): (() => T) => {
  let v: T | undefined;
  return () => (v ??= load());
};
/** The recorded version of a storm sequence with the largest published sum (its peak). */
const peakOf = (seq: string): unknown => {
  const rows = parse(readFileSync(sharedPath(`sequences/${seq}/index.csv`)), { columns: true }) as Array<
    Record<string, string>
  >;
  const peak = rows.reduce((a, b) => (Number(b.sum_value) > Number(a.sum_value) ? b : a));
  return sharedJson(`sequences/${seq}/${peak.file}`);
};
/** A paged list: `items` sliced by offset/limit query parameters, wrapped by `wrap`. */
const paged =
  (
    items: () => unknown[],
    off: string,
    lim: string,
    wrap: (page: unknown[], more: boolean, total: number) => unknown,
  ) =>
  (url: URL): Answer => {
    const all = items();
    const offset = Number(url.searchParams.get(off) ?? 0);
    const limit = Number(url.searchParams.get(lim) ?? all.length);
    return json(wrap(all.slice(offset, offset + limit), offset + limit < all.length, all.length));
  };

/** OpenDataSoft's `select`: only the fields asked for. */
const selected = (records: Array<Record<string, unknown>>, url: URL) => {
  const fields = (url.searchParams.get('select') ?? '').split(',').filter(Boolean);
  return fields.length ? records.map((r) => Object.fromEntries(fields.map((f) => [f, r[f] ?? null]))) : records;
};

const dominion = once(() => sharedJson('payloads/kubra/dominion-report.json'));
const nspowerPoints = once(() => sharedJson('payloads/kubra/nspower-outages-points-2026-04-30T1944Z.json'));
const kubraThematic = once(() => (sharedJson('payloads/kubra/thematic-sample.json') as { thematic: unknown }).thematic);
const pge = once(() => (peakOf('pge-arcgis-points-mar-2024') as unknown[]).map((attributes) => ({ attributes })));
const sceg = once(() =>
  (sharedJson('payloads/arcgis/sceg-county-layer-2017.json') as unknown[]).map((attributes) => ({ attributes })),
);
const odin = once(
  () => (sharedJson('payloads/odin/odin-records-sample.json') as { results: Array<Record<string, unknown>> }).results,
);
const fplPair = once(() => sharedJson('payloads/fpl/counties.json') as { main: unknown; nw: unknown });
const flint = (name: string) => once(() => sharedJson(`payloads/milsoft/flint-emc-${name}-2026-10-10T1053Z.json`));
const flintSummary = flint('outagesummary');
const centerpoint = once(
  () =>
    (
      sharedJson('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json') as {
        reports: { events: unknown; counties: unknown };
      }
    ).reports,
);
const coned = once(
  () =>
    sharedJson('payloads/ifactor/coned-bundle-2026-10-08T1905Z.json') as {
      summary: unknown;
      nyc: unknown;
      westchester: unknown;
    },
);
const oppd = once(
  () =>
    (
      sharedJson('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json') as {
        reports: { events: unknown; counties: unknown; accounts: unknown };
      }
    ).reports,
);
const rmp = once(
  () => sharedJson('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json') as Record<string, unknown>,
);
const wec = once(
  () => sharedJson('payloads/wec/we-energies-latest-2026-07-27T2113Z.json') as { captured_at: string; events: unknown },
);
const pse = once(() => sharedJson('payloads/puget/pse-outages-2026-03-13T2218Z.json'));
const PSE = '/api/sitecore/OutageMap/AnonymoussMapListView';
const NIPSCO = '/nisource-api/ldc/GetPowerOutages';

const ODIN = '/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json';
const KUBRA = '/stormcenter/api/v1/stormcenters/i/views/v';
const CONED_DIR = '/coned/ifd/2026_10_08_19_05_00';
const GPC_DIR = '/gpc/ifd/2017_11_17_02_00_00';
const PCORP = '/etc/pcorp/datafiles/outagemap';

export const FIXTURES: Fixture[] = [
  {
    connector: 'kubra',
    rows: [
      {
        id: 'dominion',
        utility: 'Dominion Energy',
        state: 'VA;NC',
        path: `${KUBRA}/currentState?preview=false`,
        options: { incidents: true, quadkeys: ['0320'], max_zoom: 4 },
      },
      { id: 'kubra-thematic', utility: 'Kubra Thematic', state: 'MI', path: '/kt/views/v/currentState' },
    ],
    routes: [
      {
        path: `${KUBRA}/currentState`,
        answer: () =>
          json({
            stormcenterDeploymentId: 'dep-1',
            data: { interval_generation_data: 'data/abc-123', cluster_interval_generation_data: 'cluster-data/g1' },
          }),
      },
      {
        path: `${KUBRA}/configuration/dep-1`,
        answer: () =>
          json({
            config: {
              reports: {
                data: {
                  interval_generation_data: [
                    { id: 'town', type: 'town' },
                    { id: 'county', type: 'county' },
                  ],
                },
              },
              layers: { data: { interval_generation_data: [{ id: 'cluster-1', type: 'CLUSTER_LAYER_1' }] } },
            },
          }),
      },
      { path: '/data/abc-123/public/reports/county_report.json', answer: () => json(dominion()) },
      { path: '/cluster-data/g1/public/cluster-1/0320.json', answer: () => json({ file_data: nspowerPoints() }) },
      {
        path: '/kt/views/v/currentState',
        answer: () => json({ stormcenterDeploymentId: 'dep-2', data: { interval_generation_data: 'data/kt-1' } }),
      },
      { path: '/kt/views/v/configuration/dep-2', answer: () => json({ config: { reports: [] } }) },
      { path: '/data/kt-1/public/thematic-1/thematic_areas.json', answer: () => json(kubraThematic()) },
    ],
  },
  {
    connector: 'nisc',
    rows: [{ id: 'kiuc', utility: 'Kauai Island Utility Cooperative', state: 'HI', path: '/kiuc/data/summary.json' }],
    routes: [{ path: '/kiuc/data/summary.json', answer: () => json(sharedJson('payloads/kiuc/summary.json')) }],
  },
  {
    connector: 'arcgis',
    rows: [
      {
        id: 'pge',
        utility: 'Pacific Gas & Electric',
        state: 'CA',
        path: '/pge/FeatureServer/0',
        options: { page_size: 60 },
        customers: 5_500_000,
      },
      {
        id: 'sceg',
        utility: 'SCE&G',
        state: 'SC',
        path: '/sceg/MapServer/3',
        options: {
          mode: 'counties',
          fields: {
            county_fips: 'FIPS',
            county: 'NAME',
            customers_out: 'NO_OUTAGES',
            customers_served: 'NO_CUSTOMERS',
          },
        },
      },
    ],
    routes: [
      {
        path: '/pge/FeatureServer/0/query',
        answer: paged(pge, 'resultOffset', 'resultRecordCount', (features, more) => ({
          features,
          exceededTransferLimit: more,
        })),
      },
      { path: '/sceg/MapServer/3/query', answer: () => json({ features: sceg() }) },
    ],
  },
  {
    connector: 'odin',
    rows: [{ id: 'odin', utility: 'ODIN', state: 'NC', path: ODIN }],
    routes: [{ path: ODIN, answer: (url) => json(selected(odin(), url)) }],
  },
  {
    connector: 'fpl',
    rows: [
      {
        id: 'fpl',
        utility: 'Florida Power & Light',
        state: 'FL',
        path: '/fpl/main.json',
        options: { nw_url: '{base}/fpl/nw.json' },
        customers: 5_900_000,
      },
      { id: 'fpl-storm', utility: 'FPL storm mode', state: 'FL', path: '/fpl/storm.json' },
    ],
    routes: [
      { path: '/fpl/main.json', answer: () => json(fplPair().main) },
      { path: '/fpl/nw.json', answer: () => json(fplPair().nw) },
      { path: '/fpl/storm.json', answer: () => json(peakOf('fpl-storm-ian-2022')) },
    ],
  },
  {
    connector: 'milsoft',
    rows: [
      { id: 'flint-bounds', utility: 'Flint EMC', state: 'GA', path: '/flint-b/data/boundaries.json' },
      {
        id: 'flint-outages',
        utility: 'Flint EMC outages',
        state: 'GA',
        path: '/flint-o/data/outages.json',
        customers: 99_000,
      },
    ],
    routes: [
      { path: '/flint-b/data/boundaries.json', answer: () => json(flint('boundaries')()) },
      { path: '/flint-b/data/outageSummary.json', answer: () => json(flintSummary()) },
      { path: '/flint-o/data/outages.json', answer: () => json(flint('outages')()) },
      { path: '/flint-o/data/outageSummary.json', answer: () => json(flintSummary()) },
    ],
  },
  {
    connector: 'outageentry',
    rows: [
      {
        id: 'svec',
        utility: 'Shenandoah Valley EC',
        state: 'VA',
        path: '/Outage/ajax/ajaxShellOut.php',
        options: { client: 'svec' },
      },
    ],
    routes: [
      {
        path: '/Outage/ajax/ajaxShellOut.php',
        method: 'POST',
        answer: () => ({
          headers: { 'content-type': 'text/html; charset=UTF-8' },
          json: sharedJson('payloads/outageentry/sample.json'),
        }),
      },
    ],
  },
  {
    connector: 'datacapable',
    rows: [
      {
        id: 'centerpoint',
        utility: 'CenterPoint Energy',
        state: 'TX',
        path: '/datacapable/v2/p/centerpoint/r/texas/map/events',
        options: { county_counts: true },
        customers: 2_700_000,
      },
    ],
    routes: [
      { path: '/datacapable/v2/p/centerpoint/r/texas/map/events', answer: () => json(centerpoint().events) },
      { path: '/datacapable/v2/p/centerpoint/r/texas/map/events/count', answer: () => json(centerpoint().counties) },
    ],
  },
  {
    connector: 'ifactor',
    rows: [
      {
        id: 'coned',
        utility: 'Con Edison',
        state: 'NY',
        path: '/coned/ifd/metadata.json',
        options: { reports: ['report_nyc.json', 'report_westchester.json'] },
      },
      { id: 'gpc', utility: 'Georgia Power', state: 'GA', path: '/gpc/ifd/metadata.json', options: { thematic: true } },
    ],
    routes: [
      { path: '/coned/ifd/metadata.json', answer: () => json({ directory: '2026_10_08_19_05_00' }) },
      { path: `${CONED_DIR}/data.json`, answer: () => json(coned().summary) },
      { path: `${CONED_DIR}/report_nyc.json`, answer: () => json(coned().nyc) },
      { path: `${CONED_DIR}/report_westchester.json`, answer: () => json(coned().westchester) },
      { path: '/gpc/ifd/metadata.json', answer: () => json({ Directory: '2017_11_17_02_00_00' }) },
      // The 2017 capture has no data.json: a made-up headline, as in the iFactor fetch test.
      {
        path: `${GPC_DIR}/data.json`,
        answer: () => json({ summaryFileData: { total_cust_a: { val: 900000 }, total_cust_s: 2500000 } }),
      },
      {
        path: `${GPC_DIR}/thematic/thematic_areas.json`,
        answer: () => json(sharedJson('payloads/ifactor-thematic/georgiapower-2017-11.json')),
      },
    ],
  },
  {
    connector: 'omap',
    rows: [{ id: 'ppl', utility: 'PPL Electric', state: 'PA', path: '/OMAP/api/Omap/Outage/Tabular?opco=PA' }],
    routes: [{ path: '/OMAP/api/Omap/Outage/Tabular', answer: () => json(sharedJson('payloads/omap/sample.json')) }],
  },
  {
    connector: 'pacificorp',
    rows: [
      {
        id: 'rmp',
        utility: 'Rocky Mountain Power',
        state: 'UT',
        path: `${PCORP}/map{ST}.json`,
        options: { states: ['UT'] },
      },
    ],
    routes: [
      {
        path: `${PCORP}/mapUT.json`,
        answer: () => ({
          headers: { date: 'Sun, 03 Mar 2024 00:45:28 GMT' },
          json: { count: rmp().count, totalState: rmp().totalState, outages: rmp().outages },
        }),
      },
      {
        path: `${PCORP}/listUT.json`,
        answer: () => ({
          headers: { date: 'Sun, 03 Mar 2024 00:45:28 GMT' },
          json: { count: rmp().count, totalState: rmp().totalState, zips: rmp().zips, counties: rmp().counties },
        }),
      },
    ],
  },
  {
    connector: 'smartc',
    rows: [
      {
        id: 'oppd',
        utility: 'Omaha Public Power District',
        state: 'NE',
        path: '/ServiceAPI/api/1/outage/alloutages/2/1/false',
        customers: 440_000,
      },
      { id: 'mge', utility: 'MG&E', state: 'WI', path: '/WidgetAPI/Outage/PreloginGetOutageData?isPlannedOutage=0' },
    ],
    routes: [
      { path: '/ServiceAPI/api/1/outage/alloutages/2/1/false', answer: () => json(oppd().events) },
      { path: '/ServiceAPI/api/1/outage/AllOutagesListView/2/1/false', answer: () => json(oppd().counties) },
      { path: '/ServiceAPI/api/1/Account/Count', answer: () => json(oppd().accounts) },
      {
        path: '/WidgetAPI/Outage/PreloginGetOutageData',
        answer: () => json(sharedJson('payloads/smartc/sample.json')),
      },
    ],
  },
  {
    connector: 'wec',
    rows: [
      {
        id: 'we-energies',
        utility: 'We Energies',
        state: 'WI;MI',
        path: '/outagesummary/view/OutageEventJSON',
        customers: 1_150_000,
      },
    ],
    routes: [
      {
        path: '/outagesummary/view/OutageEventJSON',
        answer: () => ({ headers: { date: new Date(wec().captured_at).toUTCString() }, json: wec().events }),
      },
    ],
  },
  {
    connector: 'puget',
    rows: [{ id: 'puget', utility: 'Puget Sound Energy', state: 'WA', path: PSE, customers: 1_149_781 }],
    routes: [{ path: PSE, answer: () => json(pse()) }],
  },
  {
    connector: 'nisource',
    rows: [{ id: 'nipsco', utility: 'NIPSCO', state: 'IN', path: NIPSCO, customers: 471_891 }],
    routes: [{ path: NIPSCO, answer: () => json(sharedJson('payloads/nisource/sample.json')) }],
  },
  {
    connector: 'pgegraphql',
    rows: [
      {
        id: 'portland-general',
        utility: 'Portland General Electric',
        state: 'OR',
        path: '/pge-graphql',
        customers: 888_123,
      },
    ],
    routes: [
      { path: '/pge-graphql', method: 'POST', answer: () => json(sharedJson('payloads/pge-graphql/sample.json')) },
    ],
  },
  {
    connector: 'midamerican',
    rows: [
      {
        id: 'midamerican',
        utility: 'MidAmerican Energy',
        state: 'IA;IL;SD',
        path: '/OutageWatch/api/County/CountyInfo/',
        customers: 779_803,
      },
    ],
    routes: [
      {
        path: '/OutageWatch/api/County/CountyInfo/',
        method: 'POST',
        answer: () => json(sharedJson('payloads/midamerican/sample.json')),
      },
    ],
  },
  {
    connector: 'smud',
    rows: [{ id: 'smud', utility: 'SMUD', state: 'CA', path: '/omkml/api/communitylist/', customers: 627_845 }],
    routes: [{ path: '/omkml/api/communitylist/', answer: () => json(sharedJson('payloads/smud/sample.json')) }],
  },
  {
    connector: 'idahopower',
    rows: [
      {
        id: 'idaho-power',
        utility: 'Idaho Power',
        state: 'ID;OR',
        path: '/api/Outage/GetCurrentOutageInformation',
        customers: 551_455,
      },
    ],
    routes: [
      {
        path: '/api/Outage/GetCurrentOutageInformation',
        answer: () => json(sharedJson('payloads/idaho-power/sample.json')),
      },
    ],
  },
  {
    connector: 'mlgw',
    rows: [
      {
        id: 'memphis-mlgw',
        utility: 'Memphis Light, Gas & Water',
        state: 'TN',
        path: '/geojson.php',
        customers: 420_000,
      },
    ],
    routes: [{ path: '/geojson.php', answer: () => json(sharedJson('payloads/mlgw/sample.json')) }],
  },
  {
    connector: 'tep',
    rows: [
      {
        id: 'tep',
        utility: 'Tucson Electric Power',
        state: 'AZ',
        path: '/OutageApp/mapfeed',
        options: { division: 'TEP' },
        customers: 426_451,
      },
      {
        id: 'uns-electric',
        utility: 'UNS Electric',
        state: 'AZ',
        path: '/OutageApp/mapfeed',
        options: { division: 'USE' },
      },
    ],
    routes: [
      { path: '/OutageApp/mapfeed', method: 'POST', answer: () => json(sharedJson('payloads/tep/sample.json')) },
    ],
  },
  {
    connector: 'nwe',
    rows: [
      {
        id: 'northwestern-energy',
        utility: 'NorthWestern Energy',
        state: 'MT;SD',
        path: '/get-outage-map-data',
        customers: 372_823,
      },
    ],
    routes: [
      {
        path: '/get-outage-map-data',
        answer: () => json({ d: JSON.stringify(sharedJson('payloads/nwe/sample.json')) }),
      },
    ],
  },
  {
    connector: 'aes',
    rows: [
      { id: 'aes-indiana', utility: 'AES Indiana', state: 'IN', path: '/OMSDATA/OMSDATA_OSI.xml', customers: 495_352 },
      { id: 'aes-ohio', utility: 'AES Ohio', state: 'OH', path: '/DATA/DPLOMSDATA.xml', customers: 523_492 },
    ],
    routes: [
      {
        path: '/OMSDATA/OMSDATA_OSI.xml',
        answer: () => ({
          headers: { 'content-type': 'application/xml' },
          text: readFileSync(sharedPath('payloads/aes-indiana/sample.xml'), 'utf8'),
        }),
      },
      {
        path: '/DATA/DPLOMSDATA.xml',
        answer: () => ({
          headers: { 'content-type': 'application/xml' },
          text: readFileSync(sharedPath('payloads/aes-ohio/sample.xml'), 'utf8'),
        }),
      },
    ],
  },
  {
    connector: 'teco',
    rows: [{ id: 'teco', utility: 'Tampa Electric', state: 'FL', path: '/api/v1/outage-tiles', customers: 763_571 }],
    routes: [
      { path: '/api/v1/outage-tiles', method: 'POST', answer: () => json(sharedJson('payloads/teco/sample.json')) },
    ],
  },
  {
    connector: 'kub',
    rows: [
      {
        id: 'knoxville-kub',
        utility: 'Knoxville Utilities Board',
        state: 'TN',
        path: '/api/outage/v1/electric-outages',
        customers: 203_571,
      },
    ],
    routes: [{ path: '/api/outage/v1/electric-outages', answer: () => json(sharedJson('payloads/kub/sample.json')) }],
  },
  {
    connector: 'clarkpud',
    rows: [
      {
        id: 'clark-pud',
        utility: 'Clark Public Utilities',
        state: 'WA',
        path: '/outage-map/data.js',
        customers: 208_717,
      },
    ],
    routes: [
      {
        path: '/outage-map/data.js',
        answer: () => ({
          headers: { 'content-type': 'application/javascript' },
          text: `gksUpdateOutageData(${JSON.stringify((sharedJson('payloads/clark-pud/sample.json') as { result: unknown }).result)});`,
        }),
      },
    ],
  },
  {
    connector: 'novec',
    rows: [{ id: 'novec', utility: 'NOVEC', state: 'VA', path: '/stormcenter/data/outagedtl.xml', customers: 170_124 }],
    routes: [
      {
        path: '/stormcenter/data/outagedtl.xml',
        answer: () => ({
          headers: { 'content-type': 'application/xml' },
          text: readFileSync(sharedPath('payloads/novec/sample.xml'), 'utf8'),
        }),
      },
    ],
  },
  {
    connector: 'luma',
    rows: [
      {
        id: 'luma',
        utility: 'LUMA',
        state: 'PR',
        path: '/miluma-outage-api/outage/regionsWithoutService',
        customers: 1_473_230,
      },
    ],
    routes: [
      {
        path: '/miluma-outage-api/outage/regionsWithoutService',
        answer: () => json(sharedJson('payloads/luma/sample.json')),
      },
    ],
  },
  {
    connector: 'anaheim',
    rows: [
      {
        id: 'anaheim',
        utility: 'Anaheim Public Utilities',
        state: 'CA',
        path: '/electricoutages/ActiveIncidents.cshtml',
        customers: 119_401,
      },
    ],
    routes: [
      {
        path: '/electricoutages/ActiveIncidents.cshtml',
        answer: () => json(sharedJson('payloads/anaheim/sample.json')),
      },
    ],
  },
  {
    connector: 'gridvu',
    rows: [
      {
        id: 'lansing-bwl',
        utility: 'Lansing Board of Water & Light',
        state: 'MI',
        path: '/GridVuServer/Public/getAllOutages',
        customers: 97_651,
      },
    ],
    routes: [
      { path: '/GridVuServer/Public/getAllOutages', answer: () => json(sharedJson('payloads/gridvu/sample.json')) },
    ],
  },
  {
    connector: 'sienatech',
    rows: [
      {
        id: 'united-power',
        utility: 'United Power',
        state: 'CO',
        path: '/Outages/Home/UpdatePushpin',
        customers: 87_528,
      },
    ],
    routes: [
      {
        path: '/Outages/Home/UpdatePushpin',
        method: 'POST',
        answer: () => ({
          headers: { 'content-type': 'text/xml' },
          text: readFileSync(sharedPath('payloads/sienatech/sample.xml'), 'utf8'),
        }),
      },
    ],
  },
  {
    connector: 'duke',
    rows: [
      {
        id: 'duke-carolinas',
        utility: 'Duke Energy Carolinas',
        state: 'NC;SC',
        path: '/outage-maps/v1/counties?jurisdiction=DEC',
        customers: 4_177_095,
      },
    ],
    routes: [
      {
        path: '/outage-maps/v1/counties',
        // the Dorian peak, summary_* folded back into the wire form's areaOfInterestSummary
        answer: () =>
          json(dukeRaw(sharedJson('payloads/duke/duke-energy-carolinas-counties-dorian-2019-09-06T1130Z.json'))),
      },
    ],
  },
  {
    connector: 'avangrid',
    rows: [
      {
        id: 'cmp-maine',
        utility: 'Central Maine Power',
        state: 'ME',
        path: '/cmp/v1/public/outagedata?filter=county',
        customers: 618_572,
      },
    ],
    routes: [
      {
        path: '/cmp/v1/public/outagedata',
        // the 16 July 2026 storm: the county answer's totals and the town answer, rebuilt from the scraper's file
        answer: (url) => {
          const raw = avangridRaw(sharedJson('payloads/avangrid/cmp-towns-2026-07-16T2116Z.json')) as Record<
            string,
            unknown
          >;
          return json(url.searchParams.get('filter') === 'town' ? raw.town : raw.county);
        },
      },
    ],
  },
  {
    connector: 'pointlist',
    rows: [
      {
        id: 'pointlist-idaho',
        utility: 'Point List (Idaho Power sample)',
        state: 'ID;OR',
        path: '/pointlist/outages.json',
        options: {
          list: 'object.outages',
          count: 'omsCustomerCount',
          id_parts: ['omsFeederName'],
          lat: 'latitude',
          lon: 'longitude',
          etr: 'omsEstimatedOutageRestorationDate',
          city: 'outageCity.0.outageCityName',
          total: 'object.totalCustomersAffected',
        },
        customers: 551_323,
      },
    ],
    routes: [{ path: '/pointlist/outages.json', answer: () => json(sharedJson('payloads/idaho-power/sample.json')) }],
  },
  {
    connector: 'heco',
    rows: [{ id: 'heco', utility: 'Hawaiian Electric', state: 'HI', path: '/api/v1/outages', customers: 462_863 }],
    routes: [{ path: '/api/v1/outages', answer: () => json(sharedJson('payloads/heco/sample.json')) }],
  },
  {
    connector: 'elpaso',
    rows: [
      { id: 'el-paso', utility: 'El Paso Electric', state: 'TX;NM', path: '/OmsApi/GetOutages', customers: 422_281 },
    ],
    // the plain (decrypted) answer: the upstream here sends no envelope and asks no credential
    routes: [
      { path: '/OmsApi/GetOutages', method: 'POST', answer: () => json(sharedJson('payloads/el-paso/sample.json')) },
    ],
  },
  {
    connector: 'snopud',
    rows: [
      { id: 'snopud', utility: 'Snohomish County PUD', state: 'WA', path: '/Home/KMLOutageAreas', customers: 350_467 },
    ],
    routes: [
      {
        path: '/Home/KMLOutageAreas',
        answer: () => ({
          headers: { 'content-type': 'application/xml' },
          text: readFileSync(sharedPath('payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml'), 'utf8'),
        }),
      },
    ],
  },
  {
    connector: 'gmp',
    rows: [
      {
        id: 'green-mountain-power',
        utility: 'Green Mountain Power',
        state: 'VT',
        path: '/api/v2/outages/incidents/towns?all=true',
        customers: 264_748,
      },
    ],
    routes: [{ path: '/api/v2/outages/incidents/towns', answer: () => json(sharedJson('payloads/gmp/sample.json')) }],
  },
  {
    connector: 'liberty',
    rows: [
      {
        id: 'empire-liberty',
        utility: 'Liberty Utilities — Empire District',
        state: 'MO;AR;KS;OK',
        path: '/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=LUMO',
        customers: 173_040,
      },
    ],
    routes: [
      {
        path: '/OutageAPI/api/1/Outage/OutageSummaryCity',
        answer: () => json(sharedJson('payloads/liberty/sample.json')),
      },
    ],
  },
  {
    connector: 'chugach',
    rows: [{ id: 'chugach', utility: 'Chugach Electric', state: 'AK', path: '/outage/Grids.js', customers: 81_297 }],
    // the peer's sample holds both answers: {grids, incidents}
    routes: [
      {
        path: '/outage/Grids.js',
        answer: () => json((sharedJson('payloads/chugach/sections.json') as { grids: unknown }).grids),
      },
      {
        path: '/outage/Incidents.js',
        answer: () => json((sharedJson('payloads/chugach/sections.json') as { incidents: unknown }).incidents),
      },
    ],
  },
  {
    connector: 'milsoftmobile',
    rows: [
      {
        id: 'york-ec',
        utility: 'York Electric Cooperative',
        state: 'SC;NC',
        path: '/omswebmap/MobileMap/OMSMobileService.asmx/GetAllCounties',
        customers: 60_288,
      },
    ],
    routes: ['GetAllCounties.xml', 'GetAllOutages-york.xml'].map((file) => ({
      path: `/omswebmap/MobileMap/OMSMobileService.asmx/${file.replace(/(-york)?\.xml$/, '')}`,
      answer: () => ({
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        text: readFileSync(sharedPath(`payloads/milsoft-asmx/${file}`), 'utf8'),
      }),
    })),
  },
];

export const fixtureFor = (connector: string): Fixture => {
  const f = FIXTURES.find((x) => x.connector === connector);
  if (!f) throw new Error(`No fuzz fixture for connector \`${connector}\`; add one to pipeline/test/fuzz/fixtures.ts`);
  return f;
};
