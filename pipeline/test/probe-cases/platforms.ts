// Probe cases of the platform connectors, each used by several utilities (Kubra, NISC, ArcGIS, Milsoft, …), and of
// ODIN: the request chain over the real payloads, served on the two upstreams `a` and `b`, and a check of the result.
import { expect } from 'vitest';
import { queryUrl } from '../../src/sources/arcgis/fetch.ts';
import { sharedJson } from '../shared-data.ts';
import { type Case, countyOut, file, json, keyOf, ok, src, sum } from './parts.ts';

export function platformCases(a: string, b: string): Case[] {
  const dominion = sharedJson('payloads/kubra/dominion-report.json') as {
    file_data: { areas: Array<{ areas: Array<{ cust_a: { val: number } }> }> };
  };
  const kiuc = sharedJson('payloads/kiuc/summary.json') as {
    regionDataSets: Array<{ regions: Array<{ numberOut: number; numberServed: number }> }>;
  };
  const sce = sharedJson('payloads/arcgis/sce.json') as {
    features: Array<{ attributes: { NoOfAffectedCust_Inci: number } }>;
  };
  const odin = sharedJson('payloads/odin/odin-records-sample.json') as {
    results: Array<{ communitydescriptor: string | null; metersaffected: number }>;
  };
  const flint = sharedJson('payloads/milsoft/flint-emc-outagesummary-2026-10-10T1053Z.json') as {
    customersOutNow: number;
  };
  const entry = sharedJson('payloads/outageentry/sample.json') as {
    0: { markers: Array<{ consumers_affected: string }> };
  };
  const cnp = (
    sharedJson('payloads/datacapable/centerpoint-tx-bundle-2026-10-08T1403Z.json') as {
      reports: { events: Array<{ numPeople: number; status: string }>; counties: Array<{ customersServed: number }> };
    }
  ).reports;
  const coned = sharedJson('payloads/ifactor/coned-bundle-2026-10-08T1905Z.json') as {
    summary: { summaryFileData: { total_cust_a: { val: number } } };
    nyc: unknown;
    westchester: unknown;
  };
  const omap = sharedJson('payloads/omap/sample.json') as { nc: string };
  const oppd = (
    sharedJson('payloads/smartc/oppd-serviceapi-bundle-2026-10-07T1501Z.json') as {
      reports: {
        events: { data: Array<{ affectedCount: number }> };
        counties: unknown;
        accounts: { data: { count: number } };
      };
    }
  ).reports;
  const kubra = '/stormcenter/api/v1/stormcenters/i/views/v';
  const odinExport = '/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json';
  const arcgis = `${a}/arcgis/rest/services/Outages/MapServer/0`;
  const [NEWEST, EARLIER] = ['2026_10_08_19_05_00', '2026_10_08_18_50_00'];
  const ASMX = '/omswebmap/MobileMap/OMSMobileService.asmx';
  const XML = { 'content-type': 'text/xml; charset=utf-8' };
  return [
    {
      source: src('kubra', ['VA', 'NC'], `${a}${kubra}/currentState?preview=false`),
      routes: {
        [`GET ${kubra}/currentState?preview=false`]: ok(
          json({ stormcenterDeploymentId: 'dep-1', data: { interval_generation_data: 'data/abc-123' } }),
        ),
        [`GET ${kubra}/configuration/dep-1?preview=false`]: ok(
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
            },
          }),
        ),
        'GET /data/abc-123/public/reports/county_report.json': ok(file('payloads/kubra/dominion-report.json')),
      },
      check: (s) =>
        expect(countyOut(s)).toBe(
          sum(
            dominion.file_data.areas.flatMap((region) => region.areas),
            (c) => c.cust_a.val,
          ),
        ),
    },
    {
      source: src('nisc', ['HI'], `${a}/kiuc/Hosted_Outage_Map/summary.json`),
      routes: { 'GET /kiuc/Hosted_Outage_Map/summary.json': ok(file('payloads/kiuc/summary.json')) },
      check: (s) =>
        expect(s.counties).toEqual([
          {
            fips: '15007',
            customers_out: kiuc.regionDataSets[0].regions[0].numberOut,
            customers_served: kiuc.regionDataSets[0].regions[0].numberServed,
          },
        ]),
    },
    {
      source: src('arcgis', ['CA'], arcgis),
      routes: { [keyOf('GET', queryUrl(arcgis, {}, 0))]: ok(file('payloads/arcgis/sce.json')) },
      check: (s) =>
        expect(s.customers_out ?? countyOut(s)).toBe(sum(sce.features, (f) => f.attributes.NoOfAffectedCust_Inci)),
    },
    // The export endpoint answers the whole data set as one array (its `select` query is matched by path here).
    {
      source: src('odin', ['OH'], `${a}${odinExport}`),
      routes: { [`GET ${odinExport}`]: ok(json(odin.results)) },
      check: (s) =>
        expect(countyOut(s)).toBe(
          sum(
            odin.results.filter((r) => /^\d{5}$/.test((r.communitydescriptor ?? '').padStart(5, '0'))),
            (r) => r.metersaffected,
          ),
        ),
    },
    {
      source: src('milsoft', ['GA'], `${a}/flint/data/boundaries.json`),
      routes: {
        'GET /flint/data/boundaries.json': ok(file('payloads/milsoft/flint-emc-boundaries-2026-10-10T1053Z.json')),
        'GET /flint/data/outageSummary.json': ok(
          file('payloads/milsoft/flint-emc-outagesummary-2026-10-10T1053Z.json'),
        ),
      },
      check: (s) => expect(s.customers_out).toBe(flint.customersOutNow),
    },
    {
      source: src('outageentry', ['VA'], `${a}/Outage/ajax/ajaxShellOut.php`, { client: 'svec', service_index: 1 }),
      routes: {
        'POST /Outage/ajax/ajaxShellOut.php': ok(file('payloads/outageentry/sample.json'), {
          'content-type': 'text/html; charset=UTF-8',
        }),
      },
      check: (s) => expect(s.customers_out).toBe(sum(entry[0].markers, (m) => Number(m.consumers_affected))),
    },
    {
      source: src('datacapable', ['TX'], `${a}/datacapable/v2/p/centerpoint/r/texas/map/events`, {
        county_counts: true,
      }),
      routes: {
        'GET /datacapable/v2/p/centerpoint/r/texas/map/events': ok(json(cnp.events)),
        'GET /datacapable/v2/p/centerpoint/r/texas/map/events/count?types=COUNTY': ok(json(cnp.counties)),
      },
      check: (s) => {
        expect(s.customers_served).toBe(sum(cnp.counties, (c) => c.customersServed));
        // Planned work in progress counts, as CenterPoint's map counts it (issue 36 part 3).
        expect(s.customers_out).toBe(sum(cnp.events, (e) => e.numPeople));
      },
    },
    // The newest directory is half written (no Westchester report yet): the probe records the 404 and the step back.
    {
      source: src('ifactor', ['NY'], `${a}/coned/ifd/metadata.json`, {
        reports: ['report_nyc.json', 'report_westchester.json'],
      }),
      routes: {
        'GET /coned/ifd/metadata.json': ok(json({ directory: NEWEST })),
        [`GET /coned/ifd/${NEWEST}/data.json`]: ok(json(coned.summary)),
        [`GET /coned/ifd/${NEWEST}/report_nyc.json`]: ok(json(coned.nyc)),
        [`GET /coned/ifd/${EARLIER}/data.json`]: ok(json(coned.summary)),
        [`GET /coned/ifd/${EARLIER}/report_nyc.json`]: ok(json(coned.nyc)),
        [`GET /coned/ifd/${EARLIER}/report_westchester.json`]: ok(json(coned.westchester)),
      },
      check: (s) => expect(s.customers_out).toBe(coned.summary.summaryFileData.total_cust_a.val),
    },
    {
      source: src('omap', ['PA'], `${a}/OMAP/api/Omap/Outage/Tabular?opco=PA`),
      routes: { 'GET /OMAP/api/Omap/Outage/Tabular?opco=PA': ok(file('payloads/omap/sample.json')) },
      check: (s) => expect(s.customers_out).toBe(Number(omap.nc)),
    },
    {
      source: src('smartc', ['NE'], `${a}/ServiceAPI/api/1/outage/alloutages/2/1/false`),
      routes: {
        'GET /ServiceAPI/api/1/outage/alloutages/2/1/false': ok(json(oppd.events)),
        'GET /ServiceAPI/api/1/outage/AllOutagesListView/2/1/false': ok(json(oppd.counties)),
        'GET /ServiceAPI/api/1/Account/Count': ok(json(oppd.accounts)),
      },
      check: (s) => {
        expect(s.customers_out).toBe(sum(oppd.events.data, (e) => e.affectedCount));
        expect(s.customers_served).toBe(oppd.accounts.data.count);
      },
    },
    {
      // the peer's Idaho Power sample read by a registry row's options alone
      source: src('pointlist', ['ID', 'OR'], `${a}/pointlist/outages.json`, {
        list: 'object.outages',
        count: 'omsCustomerCount',
        id_parts: ['omsFeederName'],
        lat: 'latitude',
        lon: 'longitude',
        total: 'object.totalCustomersAffected',
      }),
      routes: { 'GET /pointlist/outages.json': ok(file('payloads/idaho-power/sample.json')) },
      check: (s) =>
        expect(s.customers_out).toBe(
          (sharedJson('payloads/idaho-power/sample.json') as { object: { totalCustomersAffected: number } }).object
            .totalCustomersAffected,
        ),
    },
    {
      source: src('milsoftmobile', ['SC', 'NC'], `${b}${ASMX}/GetAllCounties`),
      routes: {
        [`GET ${ASMX}/GetAllCounties`]: ok(file('payloads/milsoft-asmx/GetAllCounties.xml'), XML),
        [`GET ${ASMX}/GetAllOutages`]: ok(file('payloads/milsoft-asmx/GetAllOutages-york.xml'), XML),
      },
      check: (s) => {
        const xml = file('payloads/milsoft-asmx/GetAllCounties.xml').toString('utf8');
        const out = [...xml.matchAll(/<CustomersAffected>(\d+)</g)].map((m) => Number(m[1]));
        expect(countyOut(s)).toBe(sum(out, (n) => n));
      },
    },
  ];
}
