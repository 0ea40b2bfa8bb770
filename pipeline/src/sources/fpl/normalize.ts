// FPL normalize: "Customers Out": "2,229" → 2229. A count that is not a number is reported, never guessed.
import type { SourceDef } from '../registry.ts';
import { addCounty, emptySnapshot, toCount, type CountyCount, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { matchCounty } from '../../geo/match.ts';
import { countyListSchema, pairSchema, stormSchema } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const counties = new Map<string, CountyCount>();
  const state = source.states[0] ?? 'FL';
  const add = (name: string, out: number | null, served: number | null): void => {
    const fips = matchCounty(state, name);
    if (!fips || out === null) {
      snap.unmatched.push(out === null ? `${name} (unreadable count)` : name);
      return;
    }
    addCounty(counties, fips, out, served);
  };
  // One schema tried, picked by the payload's top-level key: trying all three built two zod errors per poll, which
  // cost several times JSON.parse of a county list.
  const has = (k: string) => typeof raw === 'object' && raw !== null && k in raw;
  const fail = { success: false } as const;
  const pair = has('main') ? pairSchema.safeParse(raw) : fail;
  const list = !pair.success && has('outages') ? countyListSchema.safeParse(raw) : fail;
  const storm = !pair.success && !list.success && has('counties') ? stormSchema.safeParse(raw) : fail;
  if (pair.success || list.success) {
    const lists = pair.success
      ? [pair.data.main, pair.data.nw].filter((l) => l !== undefined)
      : list.success
        ? [list.data]
        : [];
    for (const l of lists)
      for (const r of l.outages) add(r['County Name'], toCount(r['Customers Out']), toCount(r['Customers Served']));
  } else if (storm.success) {
    for (const c of Object.values(storm.data.counties))
      add(c.name, toCount(c.numberofoutages), toCount(c.numberofaccounts));
  } else {
    throw new SourceError(
      'schema',
      'FPL payload is neither a county list ({outages: [...]}) nor storm mode ({counties: {...}})',
    );
  }
  snap.counties = [...counties.values()].sort((a, b) => a.fips.localeCompare(b.fips));
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  const served = snap.counties.map((c) => c.customers_served);
  snap.customers_served = served.length && served.every((v) => v !== null) ? served.reduce((s, v) => s! + v!, 0) : null;
  if (storm.success && storm.data.statewide?.numberofaccounts)
    snap.customers_served = storm.data.statewide.numberofaccounts;
  snap.basis = 'county';
  return snap;
}
