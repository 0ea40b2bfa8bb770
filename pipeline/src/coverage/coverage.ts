// How much of the country the registry covers (issue "Real national coverage"): EIA-861 customers per state, split
// into covered by a utility's own feed, covered only by ODIN (an estimate) and not covered; the own-feed share again
// with every credential the registry names (issue 26 part 3); and the largest utilities not covered, with the reason.
// Pure: the registry rows and the two tables are passed in.
import { STATES } from '../geo/states.ts';
import type { InactiveSource } from '../registry/registry.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { odinExclusions } from '../sources/odin/exclusions.ts';
import type { CustomerRow } from './tables.ts';

/** An active registry row (SourceDef with its eia_ids). */
export type CoverageSource = Pick<SourceDef, 'id' | 'connector' | 'states' | 'options'> & {
  eia_ids: readonly string[];
};
/** A gated or disabled row: why its utilities are not covered. */
export type CoverageInactive = Pick<InactiveSource, 'id' | 'status' | 'status_reason'> & { eia_ids: readonly string[] };
export interface CoverageRegistry {
  /** the rows polled without any credential */
  sources: readonly CoverageSource[];
  inactive: readonly CoverageInactive[];
  /**
   * Gated rows gated only for want of a credential: their `options.credential_env` names the variable that makes them
   * active (statusWithCredentials). They count in `customers_own_feed_with_credentials` only.
   */
  credentialed?: readonly CoverageSource[];
}

export type UncoveredReason = 'gated' | 'not_yet_wired' | 'disabled' | 'state_not_in_feed' | 'no_public_feed';
export interface UncoveredUtility {
  eia_id: number;
  utility: string;
  /** the states where it is not covered (in this scope) */
  states: string[];
  customers: number;
  reason: UncoveredReason;
  /** the registry row that names the utility, if any */
  source_id: string | null;
  detail: string;
}
export interface ScopeCoverage {
  /** `US` (the 50 states and DC) or a postal code */
  scope: string;
  customers: number;
  /** covered by an active row's own feed, without any credential */
  customers_own_feed: number;
  /** covered by an own feed once every credential the registry names is set (≥ customers_own_feed) */
  customers_own_feed_with_credentials: number;
  customers_odin_only: number;
  customers_not_covered: number;
  uncovered: UncoveredUtility[];
}
export interface Coverage {
  national: ScopeCoverage;
  states: ScopeCoverage[];
}

/** EIA-861's per-state adjustment rows: customers of no named utility, never covered, never listed. */
export const EIA_ADJUSTMENT = 99999;
const US = new Set(STATES.filter((s) => Number(s.fips) <= 56).map((s) => s.code));
const KNOWN = new Set(STATES.map((s) => s.code));

/** Why a utility without coverage in a state is not covered. */
function reasonFor(id: number, registry: CoverageRegistry): Pick<UncoveredUtility, 'reason' | 'source_id' | 'detail'> {
  const key = String(id);
  const deep = registry.sources.find((s) => s.connector !== 'odin' && s.eia_ids.some((e) => String(Number(e)) === key));
  if (deep)
    return {
      reason: 'state_not_in_feed',
      source_id: deep.id,
      detail: `its feed (row ${deep.id}) covers ${deep.states.join(', ')} only; ODIN drops the utility everywhere`,
    };
  const row = registry.inactive.find((s) => s.eia_ids.some((e) => String(Number(e)) === key));
  if (!row)
    return { reason: 'no_public_feed', source_id: null, detail: 'no public outage feed known (not in the registry)' };
  const reason =
    row.status === 'gated' ? 'gated' : /^not yet wired/i.test(row.status_reason) ? 'not_yet_wired' : 'disabled';
  return { reason, source_id: row.id, detail: row.status_reason || row.status };
}

const emptyScope = (scope: string): ScopeCoverage => ({
  scope,
  customers: 0,
  customers_own_feed: 0,
  customers_own_feed_with_credentials: 0,
  customers_odin_only: 0,
  customers_not_covered: 0,
  uncovered: [],
});
type Gaps = Map<number, UncoveredUtility>;

/** The n largest gaps, most customers first, each utility's states sorted. */
const largest = (gaps: Gaps, n: number): UncoveredUtility[] =>
  [...gaps.values()]
    .filter((u) => u.customers > 0)
    .sort((a, b) => b.customers - a.customers || a.eia_id - b.eia_id)
    .slice(0, n)
    .map((u) => ({ ...u, states: [...u.states].sort() }));

/** Adds one utility's gap in one state into a map of gaps (per state, or national). */
function addGap(gaps: Gaps, g: UncoveredUtility, state: string, customers: number): void {
  const u = gaps.get(g.eia_id) ?? { ...g, states: [], customers: 0 };
  if (!u.states.includes(state)) u.states.push(state);
  u.customers += customers;
  gaps.set(g.eia_id, u);
}

/** `utility|state` keys of the deep (non-ODIN) rows: what their own feeds cover. */
function ownKeys(rows: readonly CoverageSource[]): Set<string> {
  const keys = new Set<string>();
  for (const s of rows)
    if (s.connector !== 'odin') for (const id of s.eia_ids) for (const st of s.states) keys.add(`${Number(id)}|${st}`);
  return keys;
}

/**
 * `odinUtilities`: the ODIN utility numbers counted as reported by ODIN (the recorded sample's, an estimate). A
 * utility × state is covered by its own feed when an active deep row lists the utility and the state; else by ODIN
 * when an active ODIN row covers the state, ODIN reports the utility and no deep row lists it (ODIN drops those
 * everywhere: see odinExclusions); else it is not covered. With credentials, it is covered by its own feed when an
 * active or a credentialed row lists it (the split into ODIN only and not covered stays the one without). The nation
 * is the sum of the 50 states and DC.
 */
export function computeCoverage(
  registry: CoverageRegistry,
  customers: readonly CustomerRow[],
  odinUtilities: Iterable<string>,
  limit = { national: 20, state: 5 },
): Coverage {
  const own = ownKeys(registry.sources);
  const ownWithCredentials = new Set([...own, ...ownKeys(registry.credentialed ?? [])]);
  const odinStates = new Set(registry.sources.filter((s) => s.connector === 'odin').flatMap((s) => s.states));
  const dropped = new Set(odinExclusions(registry.sources));
  const odin = new Set([...odinUtilities].map((u) => String(Number(u))).filter((u) => !dropped.has(u)));
  const states = new Map<string, ScopeCoverage & { gaps: Gaps }>();
  for (const r of customers) {
    if (!KNOWN.has(r.state)) continue;
    const sc = states.get(r.state) ?? states.set(r.state, { ...emptyScope(r.state), gaps: new Map() }).get(r.state)!;
    const kind = own.has(`${r.utility_number}|${r.state}`)
      ? 'customers_own_feed'
      : odinStates.has(r.state) && odin.has(String(r.utility_number))
        ? 'customers_odin_only'
        : 'customers_not_covered';
    sc.customers += r.customers;
    sc[kind] += r.customers;
    if (ownWithCredentials.has(`${r.utility_number}|${r.state}`)) sc.customers_own_feed_with_credentials += r.customers;
    if (kind === 'customers_not_covered' && r.utility_number !== EIA_ADJUSTMENT) {
      addGap(
        sc.gaps,
        {
          eia_id: r.utility_number,
          utility: r.utility_name,
          states: [],
          customers: 0,
          ...reasonFor(r.utility_number, registry),
        },
        r.state,
        r.customers,
      );
    }
  }
  const national = emptyScope('US');
  const nationalGaps: Gaps = new Map();
  for (const sc of states.values()) {
    // EIA's adjustment can put a state's total below what its covered utilities report (DC: −539): then the
    // covered customers are the state's customers, and none is counted as not covered.
    if (sc.customers_not_covered < 0) {
      sc.customers -= sc.customers_not_covered;
      sc.customers_not_covered = 0;
    }
    // The same with credentials (HI: −16,686 against Hawaiian Electric's three companies): every customer of the state
    // is covered. The total stays the one without credentials, so both figures share one denominator.
    sc.customers_own_feed_with_credentials = Math.min(sc.customers_own_feed_with_credentials, sc.customers);
    sc.uncovered = largest(sc.gaps, limit.state);
    if (!US.has(sc.scope)) continue;
    for (const k of [
      'customers',
      'customers_own_feed',
      'customers_own_feed_with_credentials',
      'customers_odin_only',
      'customers_not_covered',
    ] as const)
      national[k] += sc[k];
    for (const g of sc.gaps.values()) addGap(nationalGaps, g, sc.scope, g.customers);
  }
  national.uncovered = largest(nationalGaps, limit.national);
  const list = [...states.values()].map(({ gaps: _, ...s }) => s);
  return { national, states: list.sort((a, b) => a.scope.localeCompare(b.scope)) };
}
