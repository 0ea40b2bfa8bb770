// NOVEC normalize. Tested on the peer's edited sample only (payloads/novec/sample.xml): vendor shape with real-looking
// ids, values rounded/edited, field names as the peer's adapter reads them. The expected numbers are read from the XML
// text with regexes here, independently of the parser under test; the other answers are made up from its shape.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalize, timeOf } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

const novec = sourceDef({ connector: 'novec' as never, utility: 'NOVEC', states: ['VA'] });
/** The SourceError reason `f` fails with (null when it does not fail). */
function reasonOf(f: () => unknown): string | null {
  try {
    f();
  } catch (err) {
    return (err as { reason?: string }).reason ?? 'not a SourceError';
  }
  return null;
}

/** Every value of attribute `name` in the XML text, in order. */
const attrs = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
/** The sample's county codes (Census FIPS), independent of the table under test. */
const CODE_FIPS: Record<string, string> = { PW: '51153', FX: '51059' };

const outage = (a: Record<string, string>) =>
  `<outage ${Object.entries(a)
    .map(([k, v]) => `${k}="${v}"`)
    .join(' ')}/>`;
const file = (list: Array<Record<string, string>>) => `<outages>${list.map(outage).join('')}</outages>`;

describe.skipIf(!hasSharedData)('novec normalize, the peer sample', () => {
  it('every outage an incident in the county its code names; customers_out is their sum', () => {
    const xml = readFileSync(sharedPath('payloads/novec/sample.xml'), 'utf8');
    const counts = attrs(xml, 'numOut').map(Number);
    const codes = attrs(xml, 'county');
    expect(counts.length).toBeGreaterThan(0);
    expect(codes.length).toBe(counts.length);
    const out: Record<string, number> = {};
    for (const [k, c] of codes.entries()) out[CODE_FIPS[c]] = (out[CODE_FIPS[c]] ?? 0) + counts[k];

    const snap = normalize(xml, novec);
    expect(snap.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual(
      attrs(xml, 'id').map((id, k) => [id, counts[k]]),
    );
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => c.fips.startsWith('51'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county', unit: 'customers' });
    // 11:02 PM EDT (UTC-4) on June 24 is 03:02Z on June 25; the second outage has a blank eTime and cause.
    expect(snap.incidents).toEqual([
      {
        id: '2026-06-24-1921',
        fips: '51153',
        customers_out: 13,
        etr: '2026-06-25T03:02:00.000Z',
        crew_status: null,
        cause: 'Tree',
        started_at: null,
        lat: 38.7,
        lon: -77.5,
        city: null,
        planned: false,
      },
      expect.objectContaining({ id: '2026-06-24-1922', fips: '51059', customers_out: 2, etr: null, cause: null }),
    ]);
  });
});

describe('novec normalize, made-up answers', () => {
  it('the point decides for an unknown or blank code; points outside Virginia stay unplaced', () => {
    const xml = file([
      { numOut: '4', county: 'ZZ', lat: '39.11', lng: '-77.56', id: 'a' }, // Leesburg: Loudoun
      { numOut: '3', county: '', lat: '38.95', lng: '-77.30', id: 'b' }, // Fairfax County
      { numOut: '5', county: 'PW', lat: '38.95', lng: '-77.30', id: 'c' }, // the code wins over the point
      { numOut: '2', lat: '39.29', lng: '-76.61', id: 'd' }, // Baltimore: not VA
      { numOut: '6', lat: '0', lng: '0', id: 'e' },
      { numOut: '0', county: 'PW', id: 'f' },
    ]);
    const snap = normalize(xml, novec);
    expect(snap.incidents.map((i) => i.fips)).toEqual(['51107', '51059', '51153', null, null, '51153']);
    expect(snap.customers_out).toBe(20);
    expect(snap.counties).toEqual([
      { fips: '51059', customers_out: 3, customers_served: null },
      { fips: '51107', customers_out: 4, customers_served: null },
      { fips: '51153', customers_out: 5, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['2 outage(s) not placed in a county (8 customers out)', 'county code ZZ']);
    expect(snap.incidents[4]).toMatchObject({ lat: null, lon: null });
  });

  it('one outage is a list of one; a repeated id is one outage (its largest count), missing ids stay distinct', () => {
    expect(normalize(file([{ numOut: '1', county: 'FX', id: '9' }]), novec).incidents.map((i) => i.id)).toEqual(['9']);
    const snap = normalize(
      file([
        { numOut: '1,200', county: 'FX', id: '9' },
        { numOut: '3', county: 'FX', id: '9' },
        { numOut: '2', lat: '38.8', lng: '-77.3' },
        { numOut: '1' },
      ]),
      novec,
    );
    expect(snap.incidents.map((i) => i.id)).toEqual(['9', '38.8,-77.3', 'outage']);
    expect(snap.customers_out).toBe(1200 + 2 + 1);
    expect(snap.counties).toEqual([{ fips: '51059', customers_out: 1200 + 2, customers_served: null }]);
    expect(snap.basis).toBe('county');
  });

  it('reads an answer without outages as county grade with nothing out; unplaced outages only as outage_only', () => {
    for (const xml of ['<outages/>', '<?xml version="1.0"?>\r\n<outages></outages>', '<outages>\n</outages>'])
      expect(normalize(xml, novec)).toMatchObject({ customers_out: 0, incidents: [], counties: [], basis: 'county' });
    expect(normalize(file([{ numOut: '3' }]), novec)).toMatchObject({ basis: 'outage_only', customers_out: 3 });
  });

  it('reads times as Eastern wall clock, time before date; anything else is none', () => {
    const ny = 'America/New_York';
    expect(timeOf('8:05 AM 01/15/2026', ny)).toBe('2026-01-15T13:05:00.000Z'); // EST, UTC-5
    expect(timeOf('12:00 AM 06/24/2026', ny)).toBe('2026-06-24T04:00:00.000Z');
    for (const none of [
      '',
      'null',
      undefined,
      'TBD',
      '06/24/2026 11:02 PM',
      '13:00 PM 06/24/2026',
      '1:00 AM 01/01/1900',
    ])
      expect(timeOf(none, ny)).toBeNull();
    const snap = normalize(file([{ numOut: '1', sTime: '7:30 PM 06/24/2026', eTime: '11:02 PM 06/24/2026' }]), novec);
    expect(snap.incidents[0]).toMatchObject({
      started_at: '2026-06-24T23:30:00.000Z',
      etr: '2026-06-25T03:02:00.000Z',
    });
  });

  it('fails a body that is not XML as bad_body, and another shape as schema naming the path', () => {
    expect(reasonOf(() => normalize('<html><body>Service Unavailable</body>', novec))).toBe('bad_body');
    expect(reasonOf(() => normalize('', novec))).toBe('bad_body');
    expect(reasonOf(() => normalize('<outages><outage numOut="1"></outages>', novec))).toBe('bad_body');
    expect(() => normalize('<html>maintenance</html>', novec)).toThrow(/expected root element <outages>, got <html>/);
    expect(() => normalize('<outages>busy</outages>', novec)).toThrow(/expected root element <outages>/);
    expect(() => normalize('<outages><outage id="1"/></outages>', novec)).toThrow(
      /outages\.outage\.0\.@numOut: expected an attribute, got undefined/,
    );
    // the fields as child elements are another shape, not attributes
    expect(() => normalize('<outages><outage><numOut>1</numOut></outage></outages>', novec)).toThrow(/@numOut/);
    expect(() => normalize('<outages><outage/></outages>', novec)).toThrow(/outages\.outage\.0: expected object/);
    expect(() => normalize({ xml: '<outages/>' }, novec)).toThrow(/expected the answer text/);
  });
});
