// FPL normalize: "Customers Out": "2,229" → 2229. A count that is not a number is unknown, never 0: the county is
// left out and noted in `unreadable`; a list none of whose counts can be read fails the poll (requireReadable).
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { matchCounty } from '../../geo/match.ts';
import { CountyTally, countOf, isObj, servedSum } from '../checks.ts';
import { readCountyList, readPair, readStorm } from './schema.ts';
import { recordCount } from '../unreadable.ts';

interface Rows {
  state: string;
  counties: CountyTally;
  snap: Snapshot;
}

function add(rows: Rows, name: string, field: string, v: unknown, served: number | null): void {
  const fips = matchCounty(rows.state, name);
  const out = recordCount(v, field, name, rows.snap.unreadable);
  if (!fips) rows.snap.unmatched.push(name);
  else if (out !== null) rows.counties.add(fips, out, served);
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const rows: Rows = { state: source.states[0] ?? 'FL', counties: new CountyTally(), snap };
  // The shape is picked by the payload's top-level key, then checked (naming the field that does not fit).
  let statewideServed: number | null = null;
  if (isObj(raw) && ('main' in raw || 'outages' in raw)) {
    for (const list of 'main' in raw ? readPair(raw) : [readCountyList(raw)])
      for (const r of list.outages)
        add(rows, r['County Name'], 'Customers Out', r['Customers Out'], countOf(r['Customers Served']));
  } else if (isObj(raw) && 'counties' in raw) {
    const storm = readStorm(raw);
    for (const key in storm.counties) {
      const c = storm.counties[key];
      add(rows, c.name, 'numberofoutages', c.numberofoutages, countOf(c.numberofaccounts));
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
