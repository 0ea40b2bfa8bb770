// Town name → county (place-match.ts) against the test's own reading of data/reference/places.csv
// (test/place-lookup.ts): every town of the states the town-list connectors serve, any case and punctuation.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { placeCounty, placeKey } from './place-match.ts';
import { PLACES_FILE } from './places.ts';
import { townCounty } from '../../test/place-lookup.ts';

const rows = parse(readFileSync(PLACES_FILE), { columns: true }) as Array<Record<string, string>>;

describe('placeCounty', () => {
  it.each(['VT', 'MO', 'KS', 'OK', 'AR', 'AK'])('%s: every town goes to the county with most of it', (state) => {
    const names = [...new Set(rows.filter((r) => r.state === state).map((r) => r.name))];
    expect(names.length).toBeGreaterThan(50);
    const wrong = names.filter((n) => placeCounty(state, n.toUpperCase()) !== (townCounty(state, n) ?? null));
    expect(wrong).toEqual([]);
  });

  it('folds St./Mt./Ft., drops a trailing City or Town the table lacks, and knows no town of another state', () => {
    expect(placeKey('St. Albans')).toBe(placeKey('Saint Albans'));
    expect(placeCounty('VT', 'Mt. Holly')).toBe(townCounty('VT', 'Mount Holly'));
    expect(placeCounty('VT', 'Rutland Town')).toBe(townCounty('VT', 'Rutland'));
    expect(placeCounty('MO', 'Webb City')).toBe(townCounty('MO', 'Webb City')); // a City that is the name itself
    expect(placeCounty('VT', 'Joplin')).toBeNull();
    expect(placeCounty('XX', 'Joplin')).toBeNull();
  });
});
