// Probe cases of the connectors that read one utility's own feed, for utilities west of the Mississippi (and
// Alaska and Hawaii): the request chain over the real payloads and a check of the result.
import { expect } from 'vitest';
import { sharedJson } from '../shared-data.ts';
import { type Case, countyOut, file, json, ok, src, sum } from './parts.ts';

export function westUtilityCases(a: string, b: string): Case[] {
  const rmp = sharedJson('payloads/pacificorp/rmp-maplistUT-2024-03-03T0045Z.json') as {
    count: number;
    totalState: number;
    outages: Array<{ icon: string; custOut: number }>;
    zips: unknown;
    counties: unknown;
  };
  const pse = sharedJson('payloads/puget/pse-outages-2026-03-13T2218Z.json') as {
    UnplannedOutageSummary: { CustomerAfftectedCount: number; OutageCount: number };
    PlannedOutageSummary: { CustomerAfftectedCount: number; OutageCount: number };
    PSPSSummary: { CustomerAfftectedCount: number; OutageCount: number };
  };
  const pgeCounties = (
    sharedJson('payloads/pge-graphql/sample.json') as {
      data: { getOutagesByCounty: Array<{ totalCustomersImpacted: number }> };
    }
  ).data.getOutagesByCounty;
  const mid = sharedJson('payloads/midamerican/sample.json') as Array<{ NumOutages: number }>;
  const smud = sharedJson('payloads/smud/sample.json') as {
    returndata: Array<{ Title: string; CustomersImpacted: number }>;
  };
  const idaho = sharedJson('payloads/idaho-power/sample.json') as {
    object: { totalCustomersAffected: number; outages: unknown[] };
  };
  const pcorp = '/etc/pcorp/datafiles/outagemap';
  const rmpDate = { date: 'Sun, 03 Mar 2024 00:45:28 GMT' };
  const LIBERTY = '/OutageAPI/api/1/Outage/OutageSummaryCity?companyGroupCode=LUMO';
  const chugach = sharedJson('payloads/chugach/sections.json') as {
    grids: unknown;
    incidents: { Items: Array<{ CUSTOMERS_AFFECTED: number }> };
  };
  return [
    {
      source: src('pacificorp', ['UT'], `${a}${pcorp}/map{ST}.json`, { states: ['UT'] }),
      routes: {
        [`GET ${pcorp}/mapUT.json`]: ok(
          json({ count: rmp.count, totalState: rmp.totalState, outages: rmp.outages }),
          rmpDate,
        ),
        [`GET ${pcorp}/listUT.json`]: ok(
          json({ count: rmp.count, totalState: rmp.totalState, zips: rmp.zips, counties: rmp.counties }),
          rmpDate,
        ),
      },
      check: (s) => {
        expect(s.customers_out).toBe(
          rmp.totalState -
            sum(
              rmp.outages.filter((o) => o.icon === 'planned'),
              (o) => o.custOut,
            ),
        );
        expect(s.incidents.some((i) => i.started_at !== null)).toBe(true); // the saved Date gives the local times their year
      },
    },
    {
      source: src('puget', ['WA'], `${a}/api/sitecore/OutageMap/AnonymoussMapListView`),
      routes: {
        'GET /api/sitecore/OutageMap/AnonymoussMapListView': ok(
          file('payloads/puget/pse-outages-2026-03-13T2218Z.json'),
        ),
      },
      check: (s) => {
        // PSE's headline in parts: unplanned, planned work and shutoffs, every customer without power.
        const parts = [pse.UnplannedOutageSummary, pse.PlannedOutageSummary, pse.PSPSSummary];
        expect(s.customers_out).toBe(parts.reduce((n, p) => n + p.CustomerAfftectedCount, 0));
        expect(s.incidents.length).toBe(parts.reduce((n, p) => n + p.OutageCount, 0));
      },
    },
    {
      source: src('pgegraphql', ['OR'], `${a}/pge-graphql`),
      routes: { 'POST /pge-graphql': ok(file('payloads/pge-graphql/sample.json')) },
      check: (s) => expect(countyOut(s)).toBe(sum(pgeCounties, (c) => c.totalCustomersImpacted)),
    },
    {
      source: src('midamerican', ['IA', 'IL', 'SD'], `${a}/OutageWatch/api/County/CountyInfo/`),
      routes: { 'POST /OutageWatch/api/County/CountyInfo/': ok(file('payloads/midamerican/sample.json')) },
      check: (s) => expect(s.customers_out).toBe(sum(mid, (c) => c.NumOutages)),
    },
    {
      source: src('smud', ['CA'], `${a}/omkml/api/communitylist/`),
      routes: { 'GET /omkml/api/communitylist/': ok(file('payloads/smud/sample.json')) },
      check: (s) => {
        expect(s.customers_out).toBe(smud.returndata.find((r) => r.Title === 'SMUD')!.CustomersImpacted);
        expect(sum(s.areas, (x) => x.customers_out)).toBe(s.customers_out);
      },
    },
    {
      source: src('idahopower', ['ID', 'OR'], `${a}/api/Outage/GetCurrentOutageInformation`),
      routes: { 'GET /api/Outage/GetCurrentOutageInformation': ok(file('payloads/idaho-power/sample.json')) },
      check: (s) => {
        expect(s.customers_out).toBe(idaho.object.totalCustomersAffected);
        expect(s.incidents.length).toBe(idaho.object.outages.length);
      },
    },
    {
      source: src('tep', ['AZ'], `${a}/OutageApp/mapfeed`, { division: 'TEP' }),
      routes: { 'POST /OutageApp/mapfeed': ok(file('payloads/tep/sample.json')) },
      check: (s) =>
        expect(s.customers_out).toBe(
          Number((sharedJson('payloads/tep/sample.json') as { AffectedCustomersTEP: string }).AffectedCustomersTEP),
        ),
    },
    {
      source: src('nwe', ['MT', 'SD'], `${a}/get-outage-map-data`),
      routes: {
        'GET /get-outage-map-data': ok(json({ d: file('payloads/nwe/sample.json').toString('utf8') })),
      },
      check: (s) =>
        expect(s.customers_out).toBe(
          (sharedJson('payloads/nwe/sample.json') as Array<{ NUM_CUST: number }>).reduce((n, r) => n + r.NUM_CUST, 0),
        ),
    },
    {
      source: src('clarkpud', ['WA'], `${a}/outage-map/data.js`),
      routes: {
        'GET /outage-map/data.js': ok(
          Buffer.from(
            `gksUpdateOutageData(${JSON.stringify((sharedJson('payloads/clark-pud/sample.json') as { result: unknown }).result)});`,
          ),
        ),
      },
      check: (s) =>
        expect(s.customers_out).toBe(
          (sharedJson('payloads/clark-pud/sample.json') as { result: { totalAffectedCustomerCount: number } }).result
            .totalAffectedCustomerCount,
        ),
    },
    {
      source: src('anaheim', ['CA'], `${a}/electricoutages/ActiveIncidents.cshtml`),
      routes: { 'GET /electricoutages/ActiveIncidents.cshtml': ok(file('payloads/anaheim/sample.json')) },
      check: (s) =>
        expect(s.customers_out).toBe(
          (sharedJson('payloads/anaheim/sample.json') as { features: unknown[] }).features.length,
        ),
    },
    {
      source: src('sienatech', ['CO'], `${a}/Outages/Home/UpdatePushpin`),
      routes: { 'POST /Outages/Home/UpdatePushpin': ok(file('payloads/sienatech/sample.xml')) },
      check: (s) => {
        const xml = file('payloads/sienatech/sample.xml').toString('utf8');
        expect(s.customers_out).toBe([...xml.matchAll(/<CURCUST>(\d+)</g)].reduce((n, m) => n + Number(m[1]), 0));
      },
    },
    {
      // the upstream here asks no credential; its Date header makes the "Today at …" ETR readable
      source: src('heco', ['HI'], `${a}/api/v1/outages`),
      routes: {
        'GET /api/v1/outages': ok(file('payloads/heco/sample.json'), { date: 'Wed, 24 Jun 2026 22:00:00 GMT' }),
      },
      check: (s) => {
        const heco = sharedJson('payloads/heco/sample.json') as { outages: Array<{ totalCustomersAffected: number }> };
        expect(s.customers_out).toBe(sum(heco.outages, (o) => o.totalCustomersAffected));
        expect(s.incidents[0].etr).toBe('2026-06-25T01:30:00.000Z');
      },
    },
    {
      // a plain (decrypted) answer: the upstream here asks no credential and sends no envelope
      source: src('elpaso', ['TX', 'NM'], `${a}/OmsApi/GetOutages`),
      routes: { 'POST /OmsApi/GetOutages': ok(file('payloads/el-paso/sample.json')) },
      check: (s) =>
        expect(s.customers_out).toBe(
          (sharedJson('payloads/el-paso/sample.json') as { totalCustAffected: number }).totalCustAffected,
        ),
    },
    {
      source: src('snopud', ['WA'], `${a}/Home/KMLOutageAreas`),
      routes: {
        'GET /Home/KMLOutageAreas': ok(file('payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml'), {
          'content-type': 'application/xml',
        }),
      },
      check: (s) => {
        const xml = file('payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml').toString('utf8');
        const counts = [...xml.matchAll(/name="EstCustomersOut"><value>(-?\d+)</g)].map((m) => Number(m[1]));
        expect(s.customers_out).toBe(sum(counts, (n) => Math.max(n, 0)));
      },
    },
    {
      source: src('liberty', ['MO', 'AR', 'KS', 'OK'], `${b}${LIBERTY}`),
      routes: { [`GET ${LIBERTY}`]: ok(file('payloads/liberty/sample.json')) },
      check: (s) => {
        const cities = (sharedJson('payloads/liberty/sample.json') as { data: Array<{ customer_affected: string }> })
          .data;
        expect(countyOut(s)).toBe(sum(cities, (c) => Number(c.customer_affected)));
      },
    },
    {
      source: src('chugach', ['AK'], `${a}/outage/Grids.js`),
      routes: {
        'GET /outage/Grids.js': ok(json(chugach.grids)),
        'GET /outage/Incidents.js': ok(json(chugach.incidents)),
      },
      check: (s) => expect(countyOut(s)).toBe(sum(chugach.incidents.Items, (i) => i.CUSTOMERS_AFFECTED)),
    },
  ];
}
