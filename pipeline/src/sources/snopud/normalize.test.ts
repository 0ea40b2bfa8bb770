// Snohomish PUD normalize on the two KMLOutageAreas answers of a project's test files (payloads/snopud/; edited test
// scenarios with `-1` placeholders: they prove parsing, not facts about SnoPUD). Expected figures are computed here
// from each file's own text: its placemarks read by the test's regexes, their centres placed by the test's own county
// lookup (d3-geo over us-atlas). Made-up answers follow the real feed's shape (one Document; an ETR that is a message).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { centreOf, normalize } from './normalize.ts';
import { normalizeReadable } from '../unreadable.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { countyContaining } from '../../../test/county-lookup.ts';

const snopud = sourceDef({ connector: 'snopud', utility: 'Snohomish County PUD', states: ['WA'] });
const FILES = ['2025-01-15T143000-KMLOutageAreas.xml', '2025-01-15T144003-KMLOutageAreas.xml'];
const read = (f: string) => readFileSync(sharedPath(`payloads/snopud/${f}`), 'utf8');

/** The file's placemarks as the test reads them: name, EstCustomersOut, and the ring's vertex mean. */
function placemarksOf(xml: string): Array<{ name: string; out: number; lon: number; lat: number }> {
  return [...xml.matchAll(/<Placemark>([\s\S]*?)<\/Placemark>/g)].map(([, p]) => {
    const out = Number(/name="EstCustomersOut"><value>(-?\d+)</.exec(p)?.[1]);
    const ring = (/<coordinates>([^<]*)<\/coordinates>/.exec(p)?.[1] ?? '').trim().split(/\s+/);
    const vertices = ring.slice(0, -1).map((t) => t.split(',').map(Number)); // the last repeats the first
    const mean = (k: number) => vertices.reduce((s, v) => s + v[k], 0) / vertices.length;
    return { name: /<name>([^<]*)<\/name>/.exec(p)?.[1] ?? '', out, lon: mean(0), lat: mean(1) };
  });
}

describe.skipIf(!hasSharedData)('snopud normalize, the recorded test answers', () => {
  it.each(FILES)('%s: every placemark an incident at its centre; a -1 placeholder is noted, never 0', (file) => {
    const xml = read(file);
    const marks = placemarksOf(xml);
    expect(marks.length).toBeGreaterThan(0);
    // -1 is "not yet estimated": unknown, never 0. Noted and left out; a file of placeholders only fails the poll.
    const counted = marks.filter((m) => m.out >= 0);
    if (counted.length === 0) {
      expect(() => normalizeReadable({ normalize }, xml, snopud)).toThrow(
        expect.objectContaining({ reason: 'schema', message: expect.stringMatching(/EstCustomersOut/) }),
      );
      return;
    }
    const snap = normalizeReadable({ normalize }, xml, snopud);
    expect(snap.unreadable).toHaveLength(marks.length - counted.length);
    const total = counted.reduce((s, m) => s + m.out, 0);
    expect(snap.customers_out).toBe(total);
    const byCounty = new Map<string, number>();
    for (const m of counted) {
      const fips = countyContaining(m.lon, m.lat) ?? '';
      if (m.out > 0) byCounty.set(fips, (byCounty.get(fips) ?? 0) + m.out);
    }
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(byCounty);
    expect(snap.incidents.map((i) => i.customers_out)).toEqual(counted.map((m) => m.out));
    for (const [k, m] of counted.entries()) {
      expect(snap.incidents[k].lon).toBeCloseTo(m.lon, 9);
      expect(snap.incidents[k].lat).toBeCloseTo(m.lat, 9);
    }
  });

  it('reads the times .NET writes, the cause and the status; a name repeated in the second Document is numbered', () => {
    // The file's -1 placeholder (area 6207 of the first Document) would fail the poll: given a count here.
    const xml = read(FILES[1]).replace('<value>-1</value>', '<value>7</value>');
    const snap = normalize(xml, snopud);
    expect(snap.incidents.map((i) => i.id)).toEqual(['6207', '8431', '6207#2', '8431#2']);
    expect(snap.incidents[3]).toMatchObject({
      started_at: '2025-01-15T14:30:15.000Z',
      etr: '2025-01-15T16:30:00.000Z',
      cause: 'Weather Related',
      crew_status: "We're investigating",
    });
  });
});

const kml = (placemarks: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Folder><name>Outage Areas</name>${placemarks}</Folder></Document></kml>`;
const placemark = (name: string, out: string, etr: string, ring: string) =>
  `<Placemark><name>${name}</name><ExtendedData><Data name="EstCustomersOut"><value>${out}</value></Data><Data name="EstimatedRestorationUTC"><value>${etr}</value></Data></ExtendedData><Polygon><outerBoundaryIs><LinearRing><coordinates>${ring}</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>`;
// A small square in Everett (Snohomish County) and one in Island County (SnoPUD serves Camano Island there; Camano
// itself is too narrow for the 1:10m shapes, so the square lies on Whidbey's east shore)
const EVERETT = '-122.21,47.98,0 -122.20,47.98,0 -122.20,47.99,0 -122.21,47.99,0 -122.21,47.98,0';
const ISLAND = '-122.46,48.04,0 -122.45,48.04,0 -122.45,48.05,0 -122.46,48.05,0 -122.46,48.04,0';

describe('snopud normalize, made-up answers in the real feed’s shape', () => {
  it('places areas in their counties; an ETR that is a message is no time', () => {
    const xml = kml(
      placemark('50144705', '2', 'We’re re-evaluating estimated restoration time.', EVERETT) +
        placemark('50144706', '14', '2025-07-01T15:00:00.0000000+00:00', ISLAND),
    );
    const snap = normalize(xml, snopud);
    const everett = countyContaining(-122.205, 47.985);
    const island = countyContaining(-122.455, 48.045);
    expect(new Map(snap.counties.map((c) => [c.fips, c.customers_out]))).toEqual(
      new Map([
        [everett, 2],
        [island, 14],
      ]),
    );
    expect(snap.incidents.map((i) => i.etr)).toEqual([null, '2025-07-01T15:00:00.000Z']);
    expect(snap.customers_out).toBe(16);
  });

  it('reads an empty document, a MultiGeometry and a point; refuses what is not KML', () => {
    expect(normalize(kml(''), snopud)).toMatchObject({ customers_out: 0, incidents: [], basis: 'county' });
    const multi = `<Placemark><name>m</name><ExtendedData><Data name="EstCustomersOut"><value>4</value></Data></ExtendedData><MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>${EVERETT}</coordinates></LinearRing></outerBoundaryIs></Polygon></MultiGeometry></Placemark>`;
    const point = (out: string) =>
      `<Placemark><name>p</name><ExtendedData>${out}</ExtendedData><Point><coordinates>-122.205,47.985,0</coordinates></Point></Placemark>`;
    const snap = normalize(kml(multi + point('<Data name="EstCustomersOut"><value>3</value></Data>')), snopud);
    expect(snap.incidents.map((i) => [i.id, i.customers_out, i.lon])).toEqual([
      ['m', 4, -122.205],
      ['p', 3, -122.205],
    ]);
    // A placemark with no count is unknown, never 0: noted and left out; with no count readable the poll fails.
    expect(normalize(kml(multi + point('')), snopud)).toMatchObject({
      customers_out: 4,
      unreadable: ['area p: EstCustomersOut missing'],
    });
    expect(() => normalizeReadable({ normalize }, kml(point('')), snopud)).toThrow(/EstCustomersOut/);
    expect(() => normalize('<html><body>Down</body></html>', snopud)).toThrow(/expected root element <kml>/);
    expect(() => normalize('<kml><Document>', snopud)).toThrow(/not well-formed XML/);
    expect(() => normalize({}, snopud)).toThrow(/expected the answer text/);
  });

  it('takes the vertex mean without the closing vertex', () => {
    expect(centreOf('0,0,0 2,0,0 2,2,0 0,2,0 0,0,0')).toEqual([1, 1]);
    expect(centreOf('')).toBeNull();
    expect(centreOf('x,y')).toBeNull();
  });
});
