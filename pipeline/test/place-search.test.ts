// Search by place (issue 27 part 4): the tables /api/v1/places publishes agree with the committed Census/SimpleMaps
// tables row for row, and the search the site runs (site/src/map/browser/place-search.js) answers "Orlando", "33101",
// "Harris County" and the rest as the table rows say it should — expectations worked out here from the CSV rows and
// us-atlas, not from the code under test.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { PLACE_TABLES } from '../src/contract/catalogue.ts';
import { STATES } from '../src/geo/states.ts';
import { loadPlaceTables, PLACES_FILE, POPULATION_FILE, ZCTA_FILE } from '../src/geo/places.ts';
import { placeDoc } from '../src/publish/places.ts';
// @ts-expect-error: a plain browser module (no types)
import { DOMINANT_SHARE, nameKey, parseQuery, search } from '../../site/src/map/browser/place-search.js';

type Rows = Array<Record<string, string>>;
const csv = (file: string) => parse(fs.readFileSync(file), { columns: true }) as Rows;
const zctaRows = csv(ZCTA_FILE);
const placeRows = csv(PLACES_FILE);
const populationOf = new Map(csv(POPULATION_FILE).map((r) => [r.fips, Number(r.population)]));
const atlas = createRequire(import.meta.url)('us-atlas/counties-10m.json') as {
  objects: { counties: { geometries: Array<{ id: string; properties: { name: string } }> } };
};
const atlasCounties = atlas.objects.counties.geometries.filter((g) => Number(g.id.slice(0, 2)) <= 56);
const STATE_LIST = STATES.map((s) => [s.code, s.name]);
const stateOf = (fips: string) => STATES.find((s) => s.fips === fips.slice(0, 2))!.code;

const tables = loadPlaceTables();

describe('the place tables', () => {
  it('has every county with a page, and every ZCTA pair and town row of the committed tables', () => {
    expect(tables.counties.map((c) => c[0]).sort()).toEqual(atlasCounties.map((g) => g.id).sort());
    const harris = tables.counties.find((c) => c[0] === '48201')!;
    expect(harris).toEqual(['48201', 'Harris', 'TX', populationOf.get('48201')]);

    const pairs = zctaRows.filter((r) => Number(r.fips.slice(0, 2)) <= 56);
    expect(Object.values(tables.zips).reduce((n, l) => n + l.length, 0)).toBe(pairs.length);
    const katy = zctaRows.filter((r) => r.zcta === '77494');
    expect(katy.map((r) => r.fips).sort()).toEqual(['48157', '48201', '48473']);
    expect(tables.zips['77494']).toEqual(
      katy.map((r) => [r.fips, Number(r.share)]).sort((a, b) => (b[1] as number) - (a[1] as number)),
    );
    expect(tables.zips['33101']).toEqual([['12086', 1]]);
    // a ZCTA whose shares no source gives keeps its counties, with null shares
    const unknown = zctaRows.find((r) => r.share === '' && Number(r.fips.slice(0, 2)) <= 56)!;
    expect(tables.zips[unknown.zcta].every(([, s]) => s === null)).toBe(true);

    const orlando = placeRows.filter((r) => r.name === 'Orlando' && r.state === 'FL');
    const entry = tables.places.find((p) => p[0] === 'Orlando' && p[1] === 'FL')!;
    expect(entry[2]).toBe(orlando.reduce((s, r) => s + Number(r.population), 0));
    expect(entry[3].map(([f]) => f)).toEqual(orlando.map((r) => r.fips));
  });

  it('publishes each table under its name with the credit, as the PlaceIndex schema says', () => {
    for (const t of PLACE_TABLES) {
      const doc = placeDoc(t, tables);
      expect(Object.keys(doc).sort()).toEqual(['credit', 'table', t].sort());
      expect(doc.credit).toMatch(
        /Census Bureau 2010 ZCTA-to-county relationship.*public domain.*SimpleMaps.*CC BY 4\.0/,
      );
    }
  });
});

describe('parseQuery', () => {
  it('reads ZIP codes, states and a county kind', () => {
    expect(parseQuery(' 33101 ', STATE_LIST)).toEqual({ zip: '33101' });
    expect(parseQuery('33101-1234', STATE_LIST)).toEqual({ zip: '33101' });
    expect(parseQuery('Harris County', STATE_LIST)).toEqual({ name: 'Harris', state: null, county: true });
    expect(parseQuery('Harris, TX', STATE_LIST)).toEqual({ name: 'Harris', state: 'TX', county: false });
    expect(parseQuery('harris county texas', STATE_LIST)).toEqual({ name: 'harris', state: 'TX', county: true });
    expect(parseQuery('St. Lucie County, Florida', STATE_LIST)).toEqual({
      name: 'St. Lucie',
      state: 'FL',
      county: true,
    });
    expect(parseQuery('County', STATE_LIST)).toEqual({ name: 'County', state: null, county: false });
    expect(parseQuery('   ', STATE_LIST)).toBeNull();
    expect(nameKey('Ft. Myers')).toBe(nameKey('Fort Myers'));
    expect(nameKey('Doña Ana')).toBe('donaana');
  });
});

/** Counties us-atlas names `name` (the 50 states and DC). */
const countiesNamed = (name: string) => atlasCounties.filter((g) => g.properties.name === name).map((g) => g.id);

describe('search', () => {
  it('"33101": a ZCTA lying in one county, Miami-Dade, is the answer outright', () => {
    const rows = zctaRows.filter((r) => r.zcta === '33101');
    expect(rows).toEqual([{ zcta: '33101', fips: '12086', share: '1' }]);
    const a = search(tables, '33101', STATE_LIST);
    expect(a.go).toBe('12086');
    expect(a.results).toEqual([
      { fips: '12086', county: 'Miami-Dade', state: 'FL', kind: 'zip', name: '33101', share: 1, weight: 1 },
    ]);
  });

  it('"77494": a ZCTA spanning counties lists each with its share, largest first, and goes nowhere', () => {
    const rows = zctaRows.filter((r) => r.zcta === '77494').sort((a, b) => Number(b.share) - Number(a.share));
    const a = search(tables, '77494', STATE_LIST);
    expect(a.go).toBeNull();
    expect(a.results.map((r: { fips: string; share: number }) => [r.fips, r.share])).toEqual(
      rows.map((r) => [r.fips, Number(r.share)]),
    );
    expect(rows.reduce((s, r) => s + Number(r.share), 0)).toBeCloseTo(1, 3);
  });

  it('"Orlando": the towns of that name put nearly all their population in Orange County FL', () => {
    const towns = placeRows.filter((r) => nameKey(r.name) === 'orlando');
    expect(new Set(towns.map((r) => r.state)).size).toBeGreaterThan(1); // Orlando FL, and smaller ones elsewhere
    const byCounty = new Map<string, number>();
    for (const r of towns) byCounty.set(r.fips, (byCounty.get(r.fips) ?? 0) + Number(r.population));
    const total = [...byCounty.values()].reduce((s, v) => s + v, 0);
    expect(byCounty.get('12095')! / total).toBeGreaterThanOrEqual(DOMINANT_SHARE);
    expect(countiesNamed('Orlando')).toEqual([]);
    const a = search(tables, 'Orlando', STATE_LIST);
    expect(a.go).toBe('12095');
    expect(a.results[0]).toMatchObject({
      fips: '12095',
      county: 'Orange',
      state: 'FL',
      kind: 'place',
      name: 'Orlando',
    });
  });

  it('"Harris County": of the two Harris counties, Texas holds ≥ 90 % of their population; towns named Harris are left out', () => {
    const harris = countiesNamed('Harris');
    expect(harris.sort()).toEqual(['13145', '48201']);
    const [ga, tx] = [populationOf.get('13145')!, populationOf.get('48201')!];
    expect(tx / (ga + tx)).toBeGreaterThanOrEqual(DOMINANT_SHARE);
    const a = search(tables, 'Harris County', STATE_LIST);
    expect(a.go).toBe('48201');
    expect(a.results.map((r: { fips: string; kind: string }) => [r.fips, r.kind])).toEqual([
      ['48201', 'county'],
      ['13145', 'county'],
    ]);
    expect(search(tables, 'Harris County, GA', STATE_LIST).go).toBe('13145');
    expect(search(tables, 'harris, tx', STATE_LIST).go).toBe('48201');
  });

  it('"Orange": several counties of comparable size are a list to choose from, the largest first', () => {
    const named = countiesNamed('Orange');
    expect(named.length).toBeGreaterThan(3);
    const a = search(tables, 'Orange County', STATE_LIST);
    expect(a.go).toBeNull();
    const expected = named.sort((x, y) => populationOf.get(y)! - populationOf.get(x)! || x.localeCompare(y));
    expect(a.results.map((r: { fips: string }) => r.fips)).toEqual(expected);
    expect(a.results[0]).toMatchObject({ fips: '06059', state: 'CA' });
  });

  it('a town spanning counties lists each with its share; a state narrows; a prefix lists without going', () => {
    const katy = placeRows.filter((r) => r.name === 'Katy' && r.state === 'TX');
    expect(katy.length).toBeGreaterThan(1);
    const a = search(tables, 'Katy, TX', STATE_LIST);
    expect(a.go).toBeNull();
    expect(a.results.map((r: { fips: string; share: number }) => [r.fips, r.share])).toEqual(
      katy.map((r) => [r.fips, Number(r.share)]),
    );
    expect(search(tables, 'Orlando, KY', STATE_LIST).results.every((r: { state: string }) => r.state === 'KY')).toBe(
      true,
    );
    const prefix = search(tables, 'Orlan', STATE_LIST);
    expect(prefix.exact).toBe(false);
    expect(prefix.go).toBeNull();
    expect(prefix.results[0]).toMatchObject({ fips: '12095', name: 'Orlando' });
  });

  it('finds nothing for an unknown name or a ZIP code that is no ZCTA', () => {
    expect(zctaRows.some((r) => r.zcta === '00000')).toBe(false);
    expect(search(tables, '00000', STATE_LIST)).toMatchObject({ go: null, results: [] });
    expect(search(tables, 'Qwxyzville', STATE_LIST)).toMatchObject({ go: null, results: [] });
    expect(search(tables, '', STATE_LIST)).toMatchObject({ go: null, results: [] });
  });

  it('every county answered has a page (a county of the 50 states or DC)', () => {
    for (const q of ['Orlando', '33101', 'Harris County', 'Springfield', '77494', 'Portland'])
      for (const r of search(tables, q, STATE_LIST).results) {
        expect(Number(r.fips.slice(0, 2))).toBeLessThanOrEqual(56);
        expect(stateOf(r.fips)).toBe(r.state);
      }
  });
});
