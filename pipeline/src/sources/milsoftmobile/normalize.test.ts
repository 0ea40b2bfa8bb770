// Milsoft mobile service normalize on York Electric's real captures (payloads/milsoft-asmx/: GetAllCounties and
// GetAllOutages, June 2026) and on made-up answers in their shape. Expected figures are computed here from each file's
// own text: its elements read by the test's regexes, county names looked up in us-atlas by the test, the outage point
// placed by the test's own point-in-county (test/county-lookup.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining, countyNamed } from '../../../test/county-lookup.ts';

const york = sourceDef({ connector: 'milsoftmobile', utility: 'York Electric Cooperative', states: ['SC', 'NC'] });
const read = (f: string) => readFileSync(sharedPath(`payloads/milsoft-asmx/${f}`), 'utf8');
const field = (block: string, name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1] ?? '';
const blocks = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1]);

/** The county list as the test reads it: SC county FIPS (us-atlas, by name) → [out, served]. */
function countiesIn(xml: string): Map<string, [number, number]> {
  const by = new Map<string, [number, number]>();
  for (const b of blocks(xml, 'MobileCounty')) {
    const fips = countyNamed('45', field(b, 'CountyName').replace(/ County$/, ''))!;
    by.set(fips, [Number(field(b, 'CustomersAffected')), Number(field(b, 'CustomersServed'))]);
  }
  return by;
}

describe.skipIf(!hasSharedData)('milsoftmobile normalize, York Electric’s real answers', () => {
  it('GetAllCounties: every county with its out and served; the totals are the counties’ sums', () => {
    const xml = read('GetAllCounties.xml');
    const expected = countiesIn(xml);
    expect(expected.size).toBe(4);
    const snap = normalize(recordedRaw(xml), york);
    expect(new Map(snap.counties.map((c) => [c.fips, [c.customers_out, c.customers_served]]))).toEqual(expected);
    const all = [...expected.values()];
    expect(snap.customers_out).toBe(all.reduce((s, [o]) => s + o, 0));
    expect(snap.customers_served).toBe(all.reduce((s, [, n]) => s + n, 0));
    expect(snap.unmatched).toEqual([]);
  });

  it('GetAllOutages: each outage an incident at its point; the headline is the file’s own', () => {
    const xml = read('GetAllOutages-york.xml');
    const outages = blocks(xml, 'MobileOutage');
    const snap = normalize(recordedRaw(xml), york);
    expect(snap.incidents.map((i) => [i.id, i.customers_out, i.fips])).toEqual(
      outages.map((b) => [
        field(b, 'CaseNumber'),
        Number(field(b, 'CutomersAffected')),
        countyContaining(Number(field(b, 'X')), Number(field(b, 'Y'))),
      ]),
    );
    expect(snap.customers_out).toBe(Number(field(xml, 'TotalCustAffected')));
    expect(snap.customers_served).toBe(Number(field(xml, 'TotalCustomers')));
    // 10:23 AM on 29 June in South Carolina is Eastern daylight time, UTC−4; no ETR is published (xsi:nil)
    expect(snap.incidents[0]).toMatchObject({ started_at: '2026-06-29T14:23:00.000Z', etr: null, cause: null });
    expect(JSON.stringify(snap)).not.toContain(field(outages[0], 'AssignedTo')); // a crew member's name
  });

  it('both answers: the county list’s counties, the outage list’s incidents and headline', () => {
    const [counties, outages] = [read('GetAllCounties.xml'), read('GetAllOutages-york.xml')];
    const snap = normalize({ counties, outages }, york);
    expect(new Map(snap.counties.map((c) => [c.fips, [c.customers_out, c.customers_served]]))).toEqual(
      countiesIn(counties),
    );
    expect(snap.incidents).toHaveLength(blocks(outages, 'MobileOutage').length);
    expect(snap.customers_out).toBe(Number(field(outages, 'TotalCustAffected')));
  });
});

const countyXml = (rows: string) =>
  `<?xml version="1.0" encoding="utf-8"?><ArrayOfMobileCounty xmlns="http://tempuri.org/">${rows}</ArrayOfMobileCounty>`;
const county = (name: string, served: number, out: number, shape = '') =>
  `<MobileCounty><CountyName>${name}</CountyName><CustomersServed>${served}</CustomersServed><CustomersAffected>${out}</CustomersAffected><Shape>${shape}</Shape></MobileCounty>`;
// A small square inside Cherokee County, North Carolina (the westernmost county), and one inside Cherokee County, SC
const NC_SQUARE = '-84.05,35.15;-84.0,35.15;-84.0,35.2;-84.05,35.2;-84.05,35.15';
const SC_SQUARE = '-81.65,35.05;-81.6,35.05;-81.6,35.1;-81.65,35.1;-81.65,35.05';

describe('milsoftmobile normalize, made-up answers in the real shape', () => {
  it('a name that is a county in two of the row’s states goes where its outline is; an unknown name is listed', () => {
    const xml = countyXml(county('Cherokee County', 10, 2, NC_SQUARE) + county('Atlantis County', 5, 1));
    const snap = normalize(recordedRaw(xml), york);
    expect(snap.counties).toEqual([
      { fips: countyContaining(-84.025, 35.175), customers_out: 2, customers_served: 10 },
    ]);
    expect(snap.counties[0].fips).toBe(countyNamed('37', 'Cherokee'));
    expect(snap.unmatched).toEqual(['Atlantis County (1 customers out)']);
    const sc = normalize(recordedRaw(countyXml(county('Cherokee County', 10, 2, SC_SQUARE))), york);
    expect(sc.counties[0].fips).toBe(countyNamed('45', 'Cherokee'));
  });

  it('reads an empty list and an empty outage answer; refuses what is not the service’s XML', () => {
    expect(normalize(recordedRaw('<ArrayOfMobileCounty xmlns="http://tempuri.org/" />'), york)).toMatchObject({
      counties: [],
      customers_out: 0,
      basis: 'county',
    });
    const none = '<MobileOutageInfo><Outages /><TotalCustAffected>0</TotalCustAffected></MobileOutageInfo>';
    expect(normalize(recordedRaw(none), york)).toMatchObject({ incidents: [], customers_out: 0 });
    expect(() => normalize(recordedRaw('<html><body>Down</body></html>'), york)).toThrow(
      /expected root element <ArrayOfMobileCounty>/,
    );
    expect(() => normalize(recordedRaw('<ArrayOfMobileCounty><MobileCounty>'), york)).toThrow(/not well-formed XML/);
    expect(() =>
      normalize(recordedRaw(countyXml('<MobileCounty><CountyName><b>x</b></CountyName></MobileCounty>')), york),
    ).toThrow(/MobileCounty\.0\.CountyName/);
    expect(() => normalize({ counties: null, outages: null }, york)).toThrow(/at least one answer/);
  });
});
