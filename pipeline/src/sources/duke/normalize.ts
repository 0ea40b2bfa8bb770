// Duke normalize: each county row is that county's customers out (areaOfInterestSummary.maxCustomersAffected) and
// served (customersServed), placed by the row's own state and county name. No outage points or ids: no incidents.
// The answer has no headline: customers out is the rows' sum, so a row whose count cannot be read fails the poll
// naming the field (never a 0). A quiet county's summary is all null, which is Duke's "none out", not unreadable.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type Snapshot } from '../snapshot.ts';
import { matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { CountyTally, countOf, nullish } from '../checks.ts';
import { recordCount } from '../unreadable.ts';
import { readRaw, type DukeCounty, type DukeSummary } from './schema.ts';

/** `NC - Alamance` → [`NC`, `Alamance`]: the name carries the state when the row's `state` field does not. */
const NAMED = /^\s*([A-Za-z]{2})\s+-\s+(.+?)\s*$/;

/** The row's postal code and county name, as the row gives them (fields first, then its display name). */
function placeName(row: DukeCounty): { state: string | null; county: string } {
  const named = NAMED.exec(row.areaOfInterestName ?? '');
  const state = row.state?.trim() || named?.[1] || '';
  const county = row.countyName?.trim() || named?.[2] || row.areaOfInterestName?.trim() || '';
  return { state: findState(state)?.code ?? null, county };
}

/** FIPS of the row's county: in its own state when it names one, else in the first of the row's states that has it. */
function countyOf(row: DukeCounty, states: string[]): string | undefined {
  const { state, county } = placeName(row);
  if (!county) return undefined;
  if (state) return matchCounty(state, county);
  for (const s of states) {
    const fips = matchCounty(s, county);
    if (fips) return fips;
  }
  return undefined;
}

/**
 * A quiet county: no summary, or one whose every field is null (its id aside), as Duke sends a county with no outage
 * in every capture. A summary with anything set (active events, a first report) and no count is unreadable instead.
 */
const quiet = (s: DukeSummary | null | undefined): boolean =>
  !s || Object.entries(s).every(([k, v]) => k === 'areaOfInterestId' || nullish(v));

/**
 * Duke's manual figure when set (the map shows it instead), else the computed one; a quiet county has none out. Null,
 * noted in `notes`, when the count cannot be read.
 */
function outOf(row: DukeCounty, label: string, notes: string[]): number | null {
  const override = row.customersAffectedOverride;
  if (!nullish(override)) return recordCount(override, 'customersAffectedOverride', `county ${label}`, notes);
  const summary = row.areaOfInterestSummary;
  if (quiet(summary)) return 0;
  return recordCount(summary?.maxCustomersAffected, 'maxCustomersAffected', `county ${label}`, notes);
}
const servedOf = (row: DukeCounty): number | null =>
  countOf(nullish(row.customersServedOverride) ? row.customersServed : row.customersServedOverride);

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const rows = readRaw(raw);
  const snap = emptySnapshot(source.utility);
  const tally = new CountyTally();
  const lost = { rows: 0, out: 0 };
  let out = 0;
  let served: number | null = 0;
  for (const row of rows) {
    const label = row.areaOfInterestName?.trim() || row.countyName?.trim() || '(no county name)';
    const n = outOf(row, label, snap.unreadable);
    if (n === null) continue;
    const s = servedOf(row);
    out += n;
    served = served === null || s === null ? null : served + s;
    const fips = countyOf(row, source.states);
    if (fips) tally.add(fips, n, s);
    else if (n > 0) {
      snap.unmatched.push(label);
      lost.rows += 1;
      lost.out += n;
    }
  }
  if (lost.rows) snap.unmatched.unshift(`${lost.rows} county row(s) not placed (${lost.out} customers out)`);
  snap.counties = tally.sorted();
  snap.customers_out = out;
  // The list names every county the jurisdiction serves, quiet ones too: its served figures add up to the utility's.
  snap.customers_served = rows.length ? served : null;
  snap.basis = 'county';
  return snap;
}
