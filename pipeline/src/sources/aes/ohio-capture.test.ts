// The AES connector on AES Ohio's own raw DPLOMSDATA.xml (a calm day, 23 Sep 2026: one marker, 24 counties listed).
// The test reads the markers with its own regular expressions and names counties with the atlas, not the connector.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { atlasName } from '../../../test/county-lookup.ts';

const FILE = 'payloads/aes-ohio/aes-ohio-DPLOMSDATA-2026-09-23T1035Z.xml';
const URL = 'https://myprofile.aes-ohio.com/DATA/DPLOMSDATA.xml';
/** Ohio county FIPS 39001…39175 by upper-case atlas name: the test's own name lookup. */
const OHIO = new Map(
  Array.from({ length: 88 }, (_, i) => `39${String(2 * i + 1).padStart(3, '0')}`).map((f) => [
    (atlasName(f) ?? '').toUpperCase(),
    f,
  ]),
);

describe.skipIf(!hasSharedData)("aes on AES Ohio's own DPLOMSDATA.xml", () => {
  it('each marker counted in the county it names; the listed counties without outages stay out', () => {
    const xml = readFileSync(sharedPath(FILE), 'utf8');
    const markers = [...xml.matchAll(/<Markers>([\s\S]*?)<\/Markers>/g)].map((m) => ({
      out: Number(/<TOTALCUSTS>(\d+)</.exec(m[1])?.[1]),
      county: /<COUNTY>([^<]+)</.exec(m[1])?.[1] ?? '',
    }));
    expect(markers.length).toBeGreaterThan(0);
    const expected = new Map<string, number>();
    for (const m of markers) {
      const fips = OHIO.get(m.county.trim());
      expect(fips, m.county).toBeDefined();
      expected.set(fips!, (expected.get(fips!) ?? 0) + m.out);
    }
    const snap = normalize({ format: 'ohio', xml }, sourceDef({ connector: 'aes', states: ['OH'], url: URL }));
    expect(snap.counties.map((c) => [c.fips, c.customers_out])).toEqual([...expected].sort());
    expect(snap.customers_out).toBe(markers.reduce((s, m) => s + m.out, 0));
    expect(snap.incidents).toHaveLength(markers.length);
    expect(snap.unmatched).toEqual([]);
  });
});
