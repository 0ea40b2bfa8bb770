// The EIA-861 reference a registry row is reconciled with: utility numbers, names, states, customers per utility ×
// state (Sales_Ult_Cust) and counties per utility (Service_Territory), read from the committed tables of
// data/reference (derived once from the workbooks); and the checks of a row against it (issue "Real national
// coverage", part 2: ids, states, customers, territory).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.ts';
import { findState } from '../geo/states.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { CheckRow, Finding } from './findings.ts';

/** The recorded payloads beside the repository: $OUTAGE_SHARED_DATA (from the repository root), else ../shared/data. */
export const SHARED_DATA_DIR = path.resolve(PACKAGE_ROOT, process.env.OUTAGE_SHARED_DATA || '../shared/data');
/** Where the committed reference tables live (data/reference/README.md says how each was derived, once). */
export const EIA_DIR = path.join(PACKAGE_ROOT, 'data/reference');
export const EIA_YEAR = 2018;
/** How far a row's `customers` may be from EIA-861 before status_reason must explain it. */
export const CUSTOMERS_TOLERANCE = 0.35;
/** The two tables of the reference, in `EIA_DIR`. */
export const EIA_FILES = { customers: 'eia861-utilities.csv', territory: 'eia861-territory.csv' } as const;

/** One line of eia861-utilities.csv: a utility in a state, with its wires customers there (null: none). */
export interface EiaUtilityRow {
  utility_number: number;
  utility_name: string;
  state: string;
  customers: number | null;
}
export const EIA_UTILITY_COLUMNS = ['utility_number', 'utility_name', 'state', 'customers'] as const;

export interface EiaUtility {
  utility_number: number;
  utility_name: string;
  /** postal codes where the utility sells or delivers, or has service territory */
  states: Set<string>;
  /** customers on the utility's wires per state: bundled (part A) + delivery-only (part C) */
  customers: Map<string, number>;
  /** 5-digit county FIPS codes of its service territory */
  counties: Set<string>;
}

export interface EiaReference {
  year: number;
  /** the two tables read */
  files: { customers: string; territory: string };
  utilities: Map<number, EiaUtility>;
}

/** The two tables in `dir`, or null when either is missing (the reference is optional for a test registry). */
function findEiaFiles(dir: string): EiaReference['files'] | null {
  const files = { customers: path.join(dir, EIA_FILES.customers), territory: path.join(dir, EIA_FILES.territory) };
  return existsSync(files.customers) && existsSync(files.territory) ? files : null;
}

function readTable(file: string): Array<Record<string, string>> {
  try {
    return parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true });
  } catch (err) {
    throw new UsageError(
      `Cannot read the EIA-861 reference table \`${file}\`: ${(err as Error).message}; data/reference/README.md says how it is built`,
    );
  }
}

const cache = new Map<string, EiaReference | null>();

/** Reads the reference from `dir` (cached per directory); null when its tables are not there. */
export function loadEiaReference(dir = EIA_DIR): EiaReference | null {
  const key = path.resolve(dir);
  if (cache.has(key)) return cache.get(key) ?? null;
  const files = findEiaFiles(dir);
  const ref = files ? buildReference(files) : null;
  cache.set(key, ref);
  return ref;
}

function buildReference(files: EiaReference['files']): EiaReference {
  const utilities = new Map<number, EiaUtility>();
  for (const r of readTable(files.customers)) {
    const n = Number(r.utility_number);
    let u = utilities.get(n);
    if (!u)
      utilities.set(
        n,
        (u = {
          utility_number: n,
          utility_name: r.utility_name,
          states: new Set(),
          customers: new Map(),
          counties: new Set(),
        }),
      );
    u.states.add(r.state);
    if (r.customers !== '') u.customers.set(r.state, Number(r.customers));
  }
  for (const r of readTable(files.territory)) utilities.get(Number(r.utility_number))?.counties.add(r.fips);
  return { year: EIA_YEAR, files, utilities };
}

/** Customers EIA-861 gives the utilities `ids` in `states`; null when it gives none (e.g. Texas wires companies). */
export function eiaCustomers(ref: EiaReference, ids: number[], states: string[]): number | null {
  let sum = 0;
  let found = false;
  for (const id of ids) {
    const u = ref.utilities.get(id);
    for (const s of states) {
      const n = u?.customers.get(s);
      if (n !== undefined) {
        sum += n;
        found = true;
      }
    }
  }
  return found && sum > 0 ? sum : null;
}

/** The row's postal codes, from its `state` column (bad codes were reported by parseRegistry). */
const rowStates = (row: CheckRow): string[] =>
  row.source?.states ?? (row.record.state ?? '').split(/[;|\s]+/).flatMap((s) => findState(s)?.code ?? []);

/** `eia_id` as numbers; the findings for malformed entries. */
export function eiaIds(row: CheckRow): { ids: number[]; findings: Finding[] } {
  const raw = (row.record.eia_id ?? '').split(/[;|\s]+/).filter(Boolean);
  const bad = raw.filter((s) => !/^\d{1,6}$/.test(s));
  const findings: Finding[] = bad.map((s) => ({
    severity: 'error',
    column: 'eia_id',
    message: `\`${s}\` is not an EIA-861 utility number (digits, several separated by ;)`,
  }));
  return { ids: raw.filter((s) => !bad.includes(s)).map(Number), findings };
}

export function checkEia(row: CheckRow, eia: EiaReference | null, shipped: boolean): Finding[] {
  const { ids, findings } = eiaIds(row);
  if (ids.length === 0) {
    if (row.record.connector === 'odin' || findings.length || !shipped) return findings;
    return [
      {
        severity: row.active ? 'error' : 'warning',
        column: 'eia_id',
        message: "eia_id is empty; give the utility's EIA-861 Utility Number so coverage can count it",
      },
    ];
  }
  if (!eia) return findings;
  const known = ids.filter((id) => eia.utilities.has(id));
  for (const id of ids.filter((i) => !known.includes(i)))
    findings.push({
      severity: 'error',
      column: 'eia_id',
      message: `${id} is not a utility number in EIA-861 ${eia.year}`,
    });
  if (known.length === 0) return findings;
  const names = known.map((id) => `${id} (${eia.utilities.get(id)?.utility_name})`).join(', ');
  const eiaStates = new Set(known.flatMap((id) => [...(eia.utilities.get(id)?.states ?? [])]));
  const states = rowStates(row);
  const outside = states.filter((s) => !eiaStates.has(s));
  if (outside.length)
    findings.push({
      severity: 'error',
      column: 'state',
      message: `${outside.join(', ')} not among the states EIA-861 ${eia.year} gives ${names}: ${[...eiaStates].sort().join(', ')}`,
    });
  const inEia = states.filter((s) => eiaStates.has(s));
  findings.push(...checkCustomers(row, eia.year, eiaCustomers(eia, known, inEia), names, inEia, shipped));
  return findings;
}

export function checkCustomers(
  row: CheckRow,
  year: number,
  expected: number | null,
  names: string,
  states: string[],
  shipped: boolean,
): Finding[] {
  const given = row.record.customers?.trim() ? Number(row.record.customers) : null;
  const where = `EIA-861 ${year} for ${names} in ${states.join(', ') || "the row's states"}`;
  if (expected === null) {
    // Texas wires companies: their customers are counted under the retailers that bill them.
    return given === null
      ? []
      : [
          {
            severity: 'warning',
            column: 'customers',
            message: `${where} has no customer count (as for a Texas wires company), so customers is not checked`,
          },
        ];
  }
  if (given === null)
    return shipped
      ? [
          {
            severity: 'warning',
            column: 'customers',
            message: `customers is empty; ${where}: ${expected.toLocaleString('en-US')}`,
          },
        ]
      : [];
  if (!Number.isFinite(given)) return []; // parseRegistry reports a non-number
  const off = (given - expected) / expected;
  if (Math.abs(off) <= CUSTOMERS_TOLERANCE) return [];
  const reason = row.record.status_reason?.trim();
  const message = `${given.toLocaleString('en-US')} is ${Math.round(off * 100)} % from ${expected.toLocaleString('en-US')} (${where}; tolerance ±${CUSTOMERS_TOLERANCE * 100} %)`;
  return [
    reason
      ? { severity: 'warning', column: 'customers', message: `${message}, explained: ${reason}` }
      : {
          severity: 'error',
          column: 'customers',
          message: `${message}; fix it or explain the difference in status_reason`,
        },
  ];
}

/** Counties a fixture produced outside the utility's EIA-861 service territory (a borrowed fixture shows here). */
export function territoryFindings(row: CheckRow, counties: string[], eia: EiaReference | null): Finding[] {
  const territory = new Set(eiaIds(row).ids.flatMap((id) => [...(eia?.utilities.get(id)?.counties ?? [])]));
  if (territory.size === 0 || counties.length === 0) return [];
  // Counties the utility's own feed shows it serves that EIA-861's Service_Territory list leaves out.
  for (const f of (row.record.territory_extra ?? '').split(/[;\s]+/)) if (f) territory.add(f);
  const outside = counties.filter((f) => !territory.has(f));
  if (outside.length === 0) return [];
  return [
    {
      severity: 'warning',
      column: 'fixture',
      message: `${outside.length} of ${counties.length} counties from the fixture lie outside the utility's EIA-861 service territory (${outside.slice(0, 5).join(', ')}${outside.length > 5 ? ', …' : ''})`,
    },
  ];
}
