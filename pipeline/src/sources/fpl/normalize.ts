// FPL normalize: "Customers Out": "2,229" → 2229. A count that is not a number is reported, never guessed.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { matchCounty } from '../../geo/match.ts';
import { CountyTally, countOf, isObj, servedSum } from '../checks.ts';
import { readCountyList, readPair, readStorm } from './schema.ts';

interface Rows {
  state: string;
  counties: CountyTally;
  unmatched: string[];
}

function add(rows: Rows, name: string, out: number | null, served: number | null): void {
  const fips = matchCounty(rows.state, name);
  if (!fips || out === null) rows.unmatched.push(out === null ? `${name} (unreadable count)` : name);
  else rows.counties.add(fips, out, served);
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows: Rows = { state: source.states[0] ?? 'FL', counties: new CountyTally(), unmatched: snap.unmatched };
  // The shape is picked by the payload's top-level key, then checked (naming the field that does not fit).
  let statewideServed: number | null = null;
  if (isObj(raw) && ('main' in raw || 'outages' in raw)) {
    for (const list of 'main' in raw ? readPair(raw) : [readCountyList(raw)])
      for (const r of list.outages)
        add(rows, r['County Name'], countOf(r['Customers Out']), countOf(r['Customers Served']));
  } else if (isObj(raw) && 'counties' in raw) {
    const storm = readStorm(raw);
    for (const key in storm.counties) {
      const c = storm.counties[key];
      add(rows, c.name, countOf(c.numberofoutages), countOf(c.numberofaccounts));
    }
    statewideServed = storm.statewide?.numberofaccounts || null;
  } else {
    throw new SourceError(
      'schema',
      'FPL payload is neither a county list ({outages: [...]}) nor storm mode ({counties: {...}})',
    );
  }
  snap.counties = rows.counties.sorted();
  snap.customers_out = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_served = statewideServed ?? servedSum(snap.counties);
  snap.basis = 'county';
  return snap;
}
