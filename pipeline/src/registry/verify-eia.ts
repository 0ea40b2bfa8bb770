// What `sources verify` compares a row's answer with: EIA-861 customers of its utilities in its states, and their
// service-territory counties. The reference tables (data/reference, or --eia-dir) give both; a directory without them
// falls back on the committed customers table (data/eia861-2018-customers.csv): customers only, territory not checked.
import path from 'node:path';
import { loadCustomerTable } from '../coverage/tables.ts';
import { eiaCustomers, loadEiaReference, type EiaReference } from './eia-reference.ts';
import type { SourceDef } from '../sources/source-def.ts';

export interface EiaCheck {
  /** what the comparison was made with, as the report names it */
  basis: string;
  /** EIA-861 customers of the row's utilities in its states; null when EIA gives none */
  customers(source: SourceDef): number | null;
  /** the FIPS codes of the answer outside the utilities' territory; null when the territory is not known */
  outside(source: SourceDef, counties: string[]): string[] | null;
}

const ids = (source: SourceDef): number[] => source.eia_ids.map(Number).filter((n) => Number.isInteger(n));

function fromReference(ref: EiaReference): EiaCheck {
  return {
    basis: `EIA-861 ${ref.year} (${path.basename(ref.files.customers)}, ${path.basename(ref.files.territory)})`,
    customers: (s) => eiaCustomers(ref, ids(s), s.states),
    outside: (s, counties) => {
      const territory = new Set(ids(s).flatMap((id) => [...(ref.utilities.get(id)?.counties ?? [])]));
      return territory.size ? counties.filter((f) => !territory.has(f)) : null;
    },
  };
}

/** Customers per utility number and state from the committed table (EIA's state adjustment rows left out). */
function fromTable(): EiaCheck {
  const byKey = new Map<string, number>();
  for (const r of loadCustomerTable())
    if (r.utility_number !== 99999) byKey.set(`${r.utility_number} ${r.state}`, r.customers);
  return {
    basis: 'EIA-861 2018 customers (data/eia861-2018-customers.csv); service territory not checked',
    customers: (s) => {
      const found = ids(s).flatMap((id) => s.states.flatMap((st) => byKey.get(`${id} ${st}`) ?? []));
      const sum = found.reduce((n, c) => n + c, 0);
      return found.length && sum > 0 ? sum : null;
    },
    outside: () => null,
  };
}

/** The full reference from `eiaDir` when its tables are there, else the committed customers table. */
export function eiaCheck(eiaDir: string): EiaCheck {
  const ref = loadEiaReference(eiaDir);
  return ref ? fromReference(ref) : fromTable();
}
