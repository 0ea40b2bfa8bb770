// Milsoft normalize: boundaries.json gives county counts from its county layer; outages.json gives incidents placed
// in counties by their point. outageSummary.json, when fetched, gives the headline customers out and served.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { matchCounty } from '../../geo/match.ts';
import { CountyTally, countOf, servedSum, sortedCounties } from '../checks.ts';
import { readBoundaries, readOutagesFile, readSummary, type BoundaryGroup } from './schema.ts';
import { readOutages } from './outages.ts';

interface Headline {
  out: number | null;
  served: number | null;
}

/** Accepts what fetch returns ({summary, boundaries|outages}) or a bare data file as the site serves it. */
export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const wrapped =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const data = wrapped ? (wrapped.boundaries ?? wrapped.outages) : raw;
  const head = headline(wrapped?.summary);
  const isBoundaries = wrapped ? 'boundaries' in wrapped : Array.isArray(raw) && looksLikeBoundaries(raw[0]);
  if (data === undefined)
    throw new SourceError(
      'schema',
      'Milsoft payload has neither `boundaries` nor `outages` (expected what fetch returns, or the bare data file)',
    );
  return isBoundaries ? fromBoundaries(readBoundaries(data), head, source) : fromOutages(data, head, source);
}

function looksLikeBoundaries(first: unknown): boolean {
  return first !== null && typeof first === 'object' && Array.isArray((first as { boundaries?: unknown }).boundaries);
}

/** The summary is best-effort: anything that is not the summary shape counts as absent, never as a failed poll. */
function headline(summary: unknown): Headline {
  const s = readSummary(summary);
  return s ? { out: countOf(s.customersOutNow), served: countOf(s.customersServed) } : { out: null, served: null };
}

/** The layer whose name or name field says county ("Counties", nameField "COUNTY"). */
export function countyGroup(groups: BoundaryGroup[]): BoundaryGroup | undefined {
  return groups.find((g) => /count(y|ies)/i.test(g.name ?? '') || /count(y|ies)/i.test(g.nameField ?? ''));
}

function matchIn(states: string[], name: string): string | undefined {
  for (const s of states) {
    const fips = matchCounty(s, name);
    if (fips) return fips;
  }
  return undefined;
}

function fromBoundaries(groups: BoundaryGroup[], head: Headline, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const group = countyGroup(groups);
  if (!group && head.out === null) {
    const names = groups.map((g) => g.name ?? g.nameField ?? '?').join(', ') || 'none';
    throw new SourceError(
      'config',
      `Milsoft boundaries.json has no county layer (layers: ${names}) and the site serves no outageSummary.json; point the registry url at data/outages.json instead`,
    );
  }
  const counties = new CountyTally();
  for (const b of group?.boundaries ?? []) {
    const name = String(b.name);
    const out = countOf(b.customersOutNow) ?? countOf(b.customersAffected);
    const served = countOf(b.customersServed);
    if (out === 0 && (served === 0 || served === null)) continue; // unused polygon (the viewer skips these too)
    const fips = matchIn(source.states, name);
    if (!fips || out === null) snap.unmatched.push(out === null ? `${name} (unreadable count)` : name);
    else counties.add(fips, out, served);
  }
  snap.counties = counties.sorted();
  snap.customers_out = head.out ?? snap.counties.reduce((s, c) => s + c.customers_out, 0);
  snap.customers_served = head.served ?? servedSum(snap.counties);
  snap.basis = group ? 'county' : 'utility_total';
  return snap;
}

function fromOutages(data: unknown, head: Headline, source: SourceDef): Snapshot {
  const snap = emptySnapshot(source.utility);
  const read = readOutages(readOutagesFile(data));
  snap.incidents = read.incidents;
  snap.unmatched = read.unmatched;
  const counties = new Map<string, CountyCount>();
  for (const i of read.incidents) if (i.fips) addCounty(counties, i.fips, i.customers_out, null);
  snap.counties = sortedCounties(counties);
  const unplanned = read.incidents.reduce((s, i) => s + i.customers_out, 0);
  // The summary cannot be split into planned and unplanned, so with planned outages out our own sum is the headline.
  snap.customers_out = head.out !== null && read.plannedOut === 0 ? head.out : unplanned;
  snap.customers_served = head.served;
  snap.basis = 'county';
  return snap;
}
