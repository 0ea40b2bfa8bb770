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
  const pair = pairSchema.safeParse(raw);
  const list = countyListSchema.safeParse(raw);
  const storm = stormSchema.safeParse(raw);
  if (pair.success || list.success) {
    const lists = pair.success ? [pair.data.main, pair.data.nw].filter((l) => l !== undefined) : [list.data!];
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
