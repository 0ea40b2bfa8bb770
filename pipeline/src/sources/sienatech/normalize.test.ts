// SienaTech normalize. Tested on the peer's edited sample only (payloads/sienatech/sample.xml): vendor shape with
// real-looking ids, values rounded/edited, field names as the peer's adapter reads them. The expected numbers are read
// from the XML text with regexes here, independently of the parser under test; the other answers are made up from its
// shape.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalize, timeOf } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

const united = sourceDef({ connector: 'sienatech' as never, utility: 'United Power', states: ['CO'] });
/** The SourceError reason `f` fails with (null when it does not fail). */
function reasonOf(f: () => unknown): string | null {
  try {
    f();
  } catch (err) {
    return (err as { reason?: string }).reason ?? 'not a SourceError';
  }
  return null;
}

/** Every text of element `name` in the XML text, in order. */
const texts = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

const row = (f: Record<string, string>) =>
  `<OMSCASES>${Object.entries(f)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('')}</OMSCASES>`;
const file = (list: Array<Record<string, string>>) => `<NewDataSet>${list.map(row).join('')}</NewDataSet>`;

describe.skipIf(!hasSharedData)('sienatech normalize, the peer sample', () => {
  it('every case an incident in the county its point lies in; customers_out is their sum', () => {
    const xml = readFileSync(sharedPath('payloads/sienatech/sample.xml'), 'utf8');
    const counts = texts(xml, 'CURCUST').map(Number);
    expect(counts.length).toBeGreaterThan(0);
    expect(xml.match(/<OMSCASES>/g)?.length).toBe(counts.length);

    const snap = normalize(xml, united);
    const total = counts.reduce((s, n) => s + n, 0);
    expect(snap.customers_out).toBe(total);
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual(
      texts(xml, 'SERIAL').map((id, k) => [id, counts[k]]),
    );
    // The one sample point (40.1574, -104.9996) lies in Weld County, near Firestone.
    expect(snap.counties).toEqual([{ fips: '08123', customers_out: total, customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('08'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county', unit: 'customers' });
    // 9:00 MDT (UTC-6) on June 29 is 15:00Z.
    expect(snap.incidents).toEqual([
      {
        id: '21547',
        fips: '08123',
        customers_out: 1,
        etr: '2026-06-29T15:00:00.000Z',
        crew_status: null,
        cause: 'Unknown',
        started_at: null,
        lat: 40.1574,
        lon: -104.9996,
        city: null,
        planned: false,
      },
    ]);
  });
});

describe('sienatech normalize, made-up answers', () => {
  it('places points in Colorado only; others stay unplaced but count', () => {
    const xml = file([
      { SERIAL: '1', CURCUST: '4', AVGLAT: '39.95', AVGLONG: '-104.80' }, // Brighton: Adams
      { SERIAL: '2', CURCUST: '3', AVGLAT: '40.02', AVGLONG: '-105.27' }, // Boulder
      { SERIAL: '3', CURCUST: '2', AVGLAT: '41.14', AVGLONG: '-104.82' }, // Cheyenne: not CO
      { SERIAL: '4', CURCUST: '6', AVGLAT: '0', AVGLONG: '0' },
      { SERIAL: '5', CURCUST: '0', AVGLAT: '39.95', AVGLONG: '-104.80' },
    ]);
    const snap = normalize(xml, united);
    expect(snap.incidents.map((i) => i.fips)).toEqual(['08001', '08013', null, null, '08001']);
    expect(snap.customers_out).toBe(15);
    expect(snap.counties).toEqual([
      { fips: '08001', customers_out: 4, customers_served: null },
      { fips: '08013', customers_out: 3, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['2 case(s) not placed in a county (8 customers out)']);
    expect(snap.incidents[3]).toMatchObject({ lat: null, lon: null });
  });

  it('one case is a list of one; INITCUST stands in for a blank CURCUST; a repeated serial is one case', () => {
    expect(normalize(file([{ SERIAL: '9', CURCUST: '1' }]), united).incidents.map((i) => i.id)).toEqual(['9']);
    const snap = normalize(
      file([
        { SERIAL: '*9', CURCUST: '1,200', INITCUST: '1,500' },
        { SERIAL: '9', CURCUST: '', INITCUST: '3' },
        { CURCUST: '2', AVGLAT: '39.95', AVGLONG: '-104.8' },
        { INITCUST: '1' },
      ]),
      united,
    );
    expect(snap.incidents.map((i) => i.id)).toEqual(['9', '39.95,-104.8', 'case']);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual([1200, 2, 1]);
    expect(snap.customers_out).toBe(1200 + 2 + 1);
    expect(snap.counties).toEqual([{ fips: '08001', customers_out: 2, customers_served: null }]);
  });

  it('reads an answer without cases as county grade with nothing out; unplaced cases only as outage_only', () => {
    for (const xml of [
      '<NewDataSet />',
      '<?xml version="1.0"?>\r\n<NewDataSet></NewDataSet>',
      '<NewDataSet>\n</NewDataSet>',
    ])
      expect(normalize(xml, united)).toMatchObject({ customers_out: 0, incidents: [], counties: [], basis: 'county' });
    expect(normalize(file([{ CURCUST: '3' }]), united)).toMatchObject({ basis: 'outage_only', customers_out: 3 });
  });

  it('reads RESTORETIM as Mountain wall clock, or with its own offset; anything else is none', () => {
    const den = 'America/Denver';
    expect(timeOf('2026-01-15 08:05:00', den)).toBe('2026-01-15T15:05:00.000Z'); // MST, UTC-7
    expect(timeOf('2026-06-29T09:00:00-06:00', den)).toBe('2026-06-29T15:00:00.000Z');
    for (const none of [
      '',
      'null',
      undefined,
      'TBD',
      '1900-01-01 00:00:00',
      '0001-01-01T00:00:00-07:00',
      '2026-13-01 00:00:00',
    ])
      expect(timeOf(none, den)).toBeNull();
  });

  it('fails a body that is not XML as bad_body, and another shape as schema naming the path', () => {
    expect(reasonOf(() => normalize('<html><body>Service Unavailable</body>', united))).toBe('bad_body');
    expect(reasonOf(() => normalize('', united))).toBe('bad_body');
    expect(reasonOf(() => normalize('<NewDataSet><OMSCASES></NewDataSet>', united))).toBe('bad_body');
    expect(() => normalize('<html>maintenance</html>', united)).toThrow(
      /expected root element <NewDataSet>, got <html>/,
    );
    expect(() => normalize('<NewDataSet>busy</NewDataSet>', united)).toThrow(/expected root element <NewDataSet>/);
    expect(() => normalize(file([{ SERIAL: '1' }]), united)).toThrow(
      /NewDataSet\.OMSCASES\.0\.CURCUST: expected an element, got undefined/,
    );
    expect(() =>
      normalize('<NewDataSet><OMSCASES><CURCUST>1</CURCUST><CURCUST>2</CURCUST></OMSCASES></NewDataSet>', united),
    ).toThrow(/OMSCASES\.0\.CURCUST: expected one text element, got array/);
    expect(() => normalize('<NewDataSet><OMSCASES/></NewDataSet>', united)).toThrow(
      /NewDataSet\.OMSCASES\.0: expected object/,
    );
    expect(() => normalize({ xml: '<NewDataSet/>' }, united)).toThrow(/expected the answer text/);
  });
});
