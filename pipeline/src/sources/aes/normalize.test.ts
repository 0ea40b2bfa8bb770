// AES normalize. Tested on the peer's edited samples only (payloads/aes-indiana/sample.xml, payloads/aes-ohio/
// sample.xml): vendor shape with real-looking ids, values rounded/edited, field names as the peer's adapter reads them.
// The expected numbers are read from the XML text with regexes here, independently of the parser under test; the
// other answers are made up from the samples' shapes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalize, timeOf } from './normalize.ts';
import type { AesFormat } from './schema.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

const xmlOf = (name: string) => readFileSync(sharedPath(`payloads/${name}/sample.xml`), 'utf8');
const indiana = sourceDef({ connector: 'aes' as never, utility: 'AES Indiana', states: ['IN'] });
const ohio = sourceDef({ connector: 'aes' as never, utility: 'AES Ohio', states: ['OH'] });
const raw = (format: AesFormat, xml: string) => ({ format, xml });
/** The SourceError reason `f` fails with (null when it does not fail). */
function reasonOf(f: () => unknown): string | null {
  try {
    f();
  } catch (err) {
    return (err as { reason?: string }).reason ?? 'not a SourceError';
  }
  return null;
}

/** Every `<tag>…</tag>` text of an XML text, in order. */
const texts = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);
const sum = (list: string[]) => list.reduce((s, v) => s + Number(v), 0);
/** The Ohio sample's county names (Census), independent of matchCounty. */
const OHIO_FIPS: Record<string, string> = { MONTGOMERY: '39113', GREENE: '39057' };

const marker = (fields: Record<string, string>) =>
  `<Marker>${Object.entries(fields)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join('')}</Marker>`;
const markers = (fields: Record<string, string>) => marker(fields).replace(/^<Marker>|<\/Marker>$/g, '');
const ohioFile = (list: Array<Record<string, string>>, total?: number) =>
  `<?xml version="1.0" standalone="yes"?><Incidents>${list.map((f) => `<Markers>${markers(f)}</Markers>`).join('')}${
    total === undefined ? '' : `<Message><UMessage>null</UMessage><TotalOut>${total}</TotalOut></Message>`
  }</Incidents>`;

describe.skipIf(!hasSharedData)('aes normalize, the peer samples', () => {
  it('Indiana: the headline as customers_out, every marker an incident placed in Marion County', () => {
    const xml = xmlOf('aes-indiana');
    const counts = texts(xml, 'CustAffected');
    expect(counts.length).toBeGreaterThan(0);
    // the sample's own numbers agree: the headline is the sum of its markers
    expect(Number(texts(xml, 'TotalCustAffected')[0])).toBe(sum(counts));
    const snap = normalize(raw('indiana', xml), indiana);
    expect(snap.customers_out).toBe(Number(texts(xml, 'TotalCustAffected')[0]));
    expect(snap.incidents.map((i) => [i.id, i.customers_out])).toEqual(
      texts(xml, 'IncidentId').map((id, k) => [id, Number(counts[k])]),
    );
    expect(snap.counties).toEqual([{ fips: '18097', customers_out: sum(counts), customers_served: null }]);
    expect(snap.counties.every((c) => c.fips.startsWith('18'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county', unit: 'customers' });
    // 7 PM EDT (UTC-4) in June; the second marker's Etr is empty
    expect(snap.incidents).toEqual([
      {
        id: '1',
        fips: '18097',
        customers_out: 22,
        etr: '2026-06-24T23:00:00.000Z',
        crew_status: null,
        cause: null,
        started_at: null,
        lat: 39.89,
        lon: -86,
        city: null,
        planned: false,
      },
      expect.objectContaining({ id: '2', fips: '18097', customers_out: 8, etr: null, lat: 39.83, lon: -85.99 }),
    ]);
  });

  it('Ohio: the markers summed (no Message headline), each counted in the county it names', () => {
    const xml = xmlOf('aes-ohio');
    const counts = texts(xml, 'TOTALCUSTS');
    const names = texts(xml, 'COUNTY');
    expect(counts.length).toBe(names.length);
    expect(xml).not.toContain('<TotalOut>');
    const out: Record<string, number> = {};
    for (const [k, n] of names.entries()) out[OHIO_FIPS[n]] = (out[OHIO_FIPS[n]] ?? 0) + Number(counts[k]);
    const snap = normalize(raw('ohio', xml), ohio);
    expect(snap.customers_out).toBe(sum(counts));
    expect(snap.incidents.map((i) => i.id)).toEqual(texts(xml, 'INCIDENTID'));
    expect(snap.counties).toEqual(
      Object.keys(out)
        .sort()
        .map((fips) => ({ fips, customers_out: out[fips], customers_served: null })),
    );
    expect(snap.counties.every((c) => c.fips.startsWith('39'))).toBe(true);
    expect(snap).toMatchObject({ customers_served: null, unmatched: [], basis: 'county' });
    // Eastern daylight time: 3:23 PM is 19:23Z. The rounded point (39.82, -84.0) lies in Greene; COUNTY says Montgomery.
    expect(snap.incidents[0]).toEqual({
      id: '1787154',
      fips: '39113',
      customers_out: 6,
      etr: '2026-06-24T22:00:00.000Z',
      crew_status: null,
      cause: null,
      started_at: '2026-06-24T19:23:00.000Z',
      lat: 39.82,
      lon: -84,
      city: null,
      planned: false,
    });
    expect(snap.incidents[1]).toMatchObject({ id: '1787160', fips: '39057', etr: '2026-06-24T23:00:00.000Z' });
  });

  it('Indiana: sums the markers when the headline is missing', () => {
    const xml = xmlOf('aes-indiana').replace(/<TotalCustAffected>\d+<\/TotalCustAffected>/, '');
    expect(normalize(raw('indiana', xml), indiana).customers_out).toBe(sum(texts(xml, 'CustAffected')));
  });
});

describe('aes normalize, made-up answers', () => {
  it('Ohio: the point decides when COUNTY is blank or unknown; points outside the row state stay unplaced', () => {
    const file = ohioFile(
      [
        { INCIDENTID: '1', TOTALCUSTS: '4', LAT: '39.76', LNG: '-84.19', COUNTY: '' }, // Dayton: Montgomery
        { INCIDENTID: '2', TOTALCUSTS: '3', LAT: '39.76', LNG: '-84.19', COUNTY: 'ATLANTIS' },
        { INCIDENTID: '3', TOTALCUSTS: '5', LAT: '39.10', LNG: '-84.51', COUNTY: 'null' }, // Cincinnati: Hamilton
        { INCIDENTID: '4', TOTALCUSTS: '2', LAT: '39.77', LNG: '-86.16', COUNTY: '' }, // Indianapolis: not OH
        { INCIDENTID: '5', TOTALCUSTS: '6', LAT: '0', LNG: '0' },
        { INCIDENTID: '6', TOTALCUSTS: '1', LAT: '39.70', LNG: '-84.10', COUNTY: 'Van Wert' },
      ],
      21,
    );
    const snap = normalize(raw('ohio', file), ohio);
    expect(snap.incidents.map((i) => i.fips)).toEqual(['39113', '39113', '39061', null, null, '39161']);
    expect(snap.counties).toEqual([
      { fips: '39061', customers_out: 5, customers_served: null },
      { fips: '39113', customers_out: 7, customers_served: null },
      { fips: '39161', customers_out: 1, customers_served: null },
    ]);
    expect(snap.unmatched).toEqual(['2 marker(s) not placed in a county (8 customers out)', 'ATLANTIS']);
    // the Message headline is the feed's own total
    expect(snap.customers_out).toBe(21);
    expect(snap.incidents[4]).toMatchObject({ lat: null, lon: null });
  });

  it('Indiana: one marker is a list of one; a repeated id is one outage (its largest count), missing ids stay distinct; planned work counts, flagged', () => {
    const one = `<OutageData><TotalCustAffected>5</TotalCustAffected><Incidents>${marker({
      IncidentId: '77',
      CustAffected: '5',
      Lat: '39.77',
      Long: '-86.16',
    })}</Incidents></OutageData>`;
    expect(normalize(raw('indiana', one), indiana).incidents.map((i) => i.id)).toEqual(['77']);
    const many = `<OutageData><Incidents>${[
      marker({ IncidentId: '9', CustAffected: '1,200', Lat: '39.77', Long: '-86.16', outageType: 'OUTAGE' }),
      marker({ IncidentId: '9', CustAffected: '3', Lat: '39.77', Long: '-86.16' }),
      marker({ IncidentId: '', CustAffected: '2', Lat: '39.8', Long: '-86.1' }),
      marker({ CustAffected: '1' }),
      marker({ IncidentId: '10', CustAffected: '50', Lat: '39.77', Long: '-86.16', outageType: 'PLANNED' }),
    ].join('')}</Incidents></OutageData>`;
    const snap = normalize(raw('indiana', many), indiana);
    expect(snap.incidents.map((i) => [i.id, i.planned])).toEqual([
      ['9', false],
      ['39.8,-86.1', false],
      ['marker', false],
      ['10', true],
    ]);
    expect([snap.customers_out, snap.planned_out]).toEqual([1200 + 2 + 1 + 50, 50]);
    expect(snap.counties).toEqual([{ fips: '18097', customers_out: 1200 + 2 + 50, customers_served: null }]);
    expect(snap.unmatched).toEqual(['1 marker(s) not placed in a county (1 customers out)']);
  });

  it('reads an answer without outages as county grade with nothing out; unplaced markers only as outage_only', () => {
    for (const [format, xml, source] of [
      ['ohio', '\r\n<?xml version="1.0"?><Incidents/>', ohio],
      ['ohio', ohioFile([], 0), ohio],
      ['indiana', '<OutageData><TotalCustAffected>0</TotalCustAffected><Incidents></Incidents></OutageData>', indiana],
    ] as const) {
      expect(normalize(raw(format, xml), source)).toMatchObject({
        customers_out: 0,
        incidents: [],
        counties: [],
        basis: 'county',
      });
    }
    const lost = ohioFile([{ INCIDENTID: '1', TOTALCUSTS: '3' }]);
    expect(normalize(raw('ohio', lost), ohio)).toMatchObject({ basis: 'outage_only', customers_out: 3 });
  });

  it('reads times as the zone’s wall clock, seconds included; anything else is none', () => {
    const ny = 'America/New_York';
    expect(timeOf('01/15/2026 08:05 AM', ny)).toBe('2026-01-15T13:05:00.000Z'); // EST, UTC-5
    expect(timeOf('9/23/2026 6:35:31 AM', ny)).toBe('2026-09-23T10:35:31.000Z');
    expect(timeOf('06/24/2026 12:00 AM', 'America/Indiana/Indianapolis')).toBe('2026-06-24T04:00:00.000Z');
    expect(timeOf('06/24/2026 07:00 PM', 'America/Chicago')).toBe('2026-06-25T00:00:00.000Z');
    for (const none of ['', 'null', undefined, 'TBD', '06/24/2026', '06/24/2026 13:00 PM', '01/01/1900 12:00 AM'])
      expect(timeOf(none, ny)).toBeNull();
    const file = ohioFile([{ INCIDENTID: '1', TOTALCUSTS: '1', EstimateTime: '06/24/2026 07:00 PM' }]);
    const central = sourceDef({ ...ohio, options: { time_zone: 'America/Chicago' } });
    expect(normalize(raw('ohio', file), central).incidents[0].etr).toBe('2026-06-25T00:00:00.000Z');
  });

  it('fails a body that is not XML as bad_body, and another shape as schema naming the path', () => {
    const bad = (format: AesFormat, xml: unknown) => () => normalize({ format, xml }, ohio);
    expect(reasonOf(bad('ohio', '<html><body>Service Unavailable</body>'))).toBe('bad_body');
    expect(reasonOf(bad('ohio', ''))).toBe('bad_body');
    expect(bad('ohio', '<OutageData><Incidents/></OutageData>')).toThrow(
      /expected root element <Incidents>, got <OutageData>/,
    );
    expect(reasonOf(bad('indiana', '<html>maintenance</html>'))).toBe('schema');
    expect(bad('ohio', ohioFile([{ LAT: '1' }]).replace('<LAT>1</LAT>', '<LAT>1</LAT><LAT>2</LAT>'))).toThrow(
      /Incidents\.Markers\.0\.LAT: expected one text element, got array/,
    );
    expect(bad('indiana', '<OutageData><Incidents><Marker/></Incidents></OutageData>')).toThrow(
      /OutageData\.Incidents\.Marker\.0: expected object, got string/,
    );
    expect(
      bad('ohio', '<Incidents><Message><TotalOut>1</TotalOut><TotalOut>2</TotalOut></Message></Incidents>'),
    ).toThrow(/Incidents\.Message\.TotalOut/);
    expect(bad('ohio', { not: 'text' })).toThrow(/xml: expected the answer text/);
    expect(() => normalize({ format: 'kentucky', xml: '<a/>' }, ohio)).toThrow(/format: expected "indiana" or "ohio"/);
  });
});
