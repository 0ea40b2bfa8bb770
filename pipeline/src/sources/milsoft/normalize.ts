// Milsoft normalize: boundaries.json gives county counts from its county layer; outages.json gives incidents placed
// in counties by their point. outageSummary.json, when fetched, gives the headline customers out and served. A count
// that cannot be read is never 0: its county or incident is not made and it is noted in `unreadable` beside the
// summary's headline; where the total is a sum (no summary), a record in it that cannot be read fails the poll naming
// the field, as does a summary whose own customersOutNow cannot be read.
import type { SourceDef } from '../source-def.ts';
import { addCounty, emptySnapshot, type CountyCount, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { matchCounty } from '../../geo/match.ts';
import { CountyTally, countOf, isObj, servedSum, sortedCounties } from '../checks.ts';
import { headlineCount, recordCount } from '../unreadable.ts';
import { readBoundaries, readOutagesFile, readSummary, type BoundaryGroup } from './schema.ts';
import { readOutages } from './outages.ts';

interface Headline {
  out: number | null;
  served: number | null;
  /** the summary's own time (`updateTime`), epoch ms; NaN when absent or unreadable */
  atMs: number;
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

/** The keys outageSummary.json carries beside its headline: an object with none of them is not the summary. */
const SUMMARY_KEYS = ['customersOutNow', 'customersServed', 'customersAffected', 'customersRestored', 'updateTime'];

/**
 * The summary is best-effort: anything that is not the summary shape (a 404, the site's HTML page, an object with
 * none of its keys) counts as absent, never as a failed poll. A summary it is, its `customersOutNow` must be read.
 */
function headline(summary: unknown): Headline {
  const s = readSummary(summary);
  if (!s || !SUMMARY_KEYS.some((k) => isObj(summary) && k in summary)) return { out: null, served: null, atMs: NaN };
  return {
    out: headlineCount(s.customersOutNow, 'customersOutNow', 'Milsoft outageSummary.json'),
    served: countOf(s.customersServed),
    atMs: typeof s.updateTime === 'string' ? Date.parse(s.updateTime) : NaN,
  };
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
  const boundaries = group?.boundaries ?? [];
  // The layer's count field: `customersOutNow`, or `customersAffected` in a layer that has no customersOutNow at all.
  // A boundary without the field its layer carries is unreadable, not one to read another field of.
  const field = boundaries.some((b) => b.customersOutNow !== undefined) ? 'customersOutNow' : 'customersAffected';
  for (const b of boundaries) {
    const name = String(b.name);
    const out = recordCount(b[field], field, `county ${name}`, snap.unreadable);
    if (out === null) continue;
    const served = countOf(b.customersServed);
    if (out === 0 && (served === 0 || served === null)) continue; // unused polygon (the viewer skips these too)
    const fips = matchIn(source.states, name);
    if (!fips) snap.unmatched.push(name);
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
  const read = readOutages(readOutagesFile(data), head.atMs);
  snap.incidents = read.incidents;
  snap.unmatched = read.unmatched;
  snap.unreadable = read.unreadable;
  const counties = new Map<string, CountyCount>();
  for (const i of read.incidents) if (i.fips) addCounty(counties, i.fips, i.customers_out, null);
  snap.counties = sortedCounties(counties);
  // The summary's headline stands as the utility publishes it, planned work in progress counted; the incidents' sum
  // only without one.
  snap.customers_out = head.out ?? read.incidents.reduce((s, i) => s + i.customers_out, 0);
  snap.planned_out = read.plannedOut;
  snap.customers_served = head.served;
  snap.basis = 'county';
  return snap;
}
