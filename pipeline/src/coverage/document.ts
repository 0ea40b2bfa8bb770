// The coverage outputs: the `data` member of /api/v1/coverage, its CSV rows (one per scope), and coverageFor, which
// reads a registry file and the committed tables into that document.
import path from 'node:path';
import { pctOut } from '../state/rules.ts';
import { STATES } from '../geo/states.ts';
import { credentialEnv } from '../sources/credential.ts';
import { loadRegistry } from '../registry/registry.ts';
import { computeCoverage, type Coverage, type CoverageRegistry, type ScopeCoverage } from './coverage.ts';
import { CUSTOMERS_FILE, ODIN_SAMPLE_FILE, loadCustomerTable, loadOdinSample, type CustomerRow } from './tables.ts';

export const COVERAGE_METHOD =
  "Customers: EIA-861 2018 per utility and state (Sales_Ult_Cust parts A and C, the customers on each utility's wires; Reliability for the five ERCOT wires companies, which file no sales rows; EIA's state adjustment rows included, so a state sums to EIA's total, except where the adjustment would put it below its covered utilities' own count: DC). Own feed (without credentials): a registry row active without any credential lists the utility (eia_id) and the state; gated rows count as not covered, whatever the deployment's environment holds. Own feed with credentials: the same, also counting the gated rows that only want the credential their options.credential_env names (listed in `credentials`), as a deployment that sets every such variable polls them. ODIN only: no active row lists the utility anywhere (ODIN drops those), an active ODIN row covers the state and ODIN reports the utility. Not covered: the rest (both without credentials). US: the 50 states and DC; territories are listed, not counted in US.";
export const ODIN_ESTIMATE =
  "An estimate: ODIN counts as reporting a utility when its utility_id appears in the recorded ODIN capture (data/odin-sample-utilities.csv: one real records page captured in June 2026: 50 of that moment's 348 county records, 20 utilities). ODIN lists a utility only while it has outages and the capture holds a seventh of the records, so this is a lower bound of what ODIN covers on a typical day. ODIN counts meters, not customers.";

export interface CoverageMeta {
  simulated: boolean;
  /** file name of the registry the figures describe */
  registry: string;
  odin_utilities: number;
  /** the credentialed rows and the variables they name (the `_with_credentials` figures count these rows) */
  credentials: { env: string[]; sources: string[] };
}

const pct = (n: number, of: number) => pctOut(n, of) ?? 0;
const names = new Map(STATES.map((s) => [s.code, s.name]));

function scopeDoc(s: ScopeCoverage) {
  return {
    scope: s.scope,
    name: s.scope === 'US' ? 'United States' : (names.get(s.scope) ?? s.scope),
    territory: s.scope !== 'US' && Number(STATES.find((x) => x.code === s.scope)?.fips ?? 0) > 56,
    customers: s.customers,
    customers_own_feed: s.customers_own_feed,
    customers_own_feed_with_credentials: s.customers_own_feed_with_credentials,
    customers_odin_only: s.customers_odin_only,
    customers_not_covered: s.customers_not_covered,
    pct_own_feed: pct(s.customers_own_feed, s.customers),
    pct_own_feed_with_credentials: pct(s.customers_own_feed_with_credentials, s.customers),
    pct_odin_only: pct(s.customers_odin_only, s.customers),
    pct_covered: pct(s.customers_own_feed + s.customers_odin_only, s.customers),
    pct_not_covered: pct(s.customers_not_covered, s.customers),
    largest_uncovered: s.uncovered,
  };
}

/** The `data` member of /api/v1/coverage (generated_at is added by the writer). */
export function coverageDoc(c: Coverage, meta: CoverageMeta) {
  return {
    simulated: meta.simulated,
    registry: meta.registry,
    method: COVERAGE_METHOD,
    credentials: meta.credentials,
    odin_estimate: { method: ODIN_ESTIMATE, utilities: meta.odin_utilities },
    national: scopeDoc(c.national),
    states: c.states.map(scopeDoc),
  };
}
export type CoverageData = ReturnType<typeof coverageDoc>;

export const COVERAGE_CSV_COLUMNS = [
  'scope',
  'name',
  'territory',
  'customers',
  'customers_own_feed',
  'pct_own_feed',
  'customers_own_feed_with_credentials',
  'pct_own_feed_with_credentials',
  'customers_odin_only',
  'pct_odin_only',
  'pct_covered',
  'customers_not_covered',
  'pct_not_covered',
  'largest_uncovered_eia_id',
  'largest_uncovered_utility',
  'largest_uncovered_customers',
  'largest_uncovered_reason',
  'generated_at',
] as const;

/** One row per scope (US first), with the scope's largest uncovered utility; the full lists are in the JSON. */
export function coverageCsvRows(
  data: CoverageData,
  generatedAt: string,
): Array<Array<string | number | boolean | null>> {
  return [data.national, ...data.states].map((s) => {
    const top = s.largest_uncovered[0];
    return [
      s.scope,
      s.name,
      s.territory,
      s.customers,
      s.customers_own_feed,
      s.pct_own_feed,
      s.customers_own_feed_with_credentials,
      s.pct_own_feed_with_credentials,
      s.customers_odin_only,
      s.pct_odin_only,
      s.pct_covered,
      s.customers_not_covered,
      s.pct_not_covered,
      top?.eia_id ?? null,
      top?.utility ?? null,
      top?.customers ?? null,
      top?.reason ?? null,
      generatedAt,
    ];
  });
}

/** The tables to read (default: the committed ones), whether the deployment is simulated, how many national gaps to list. */
export interface CoverageOptions {
  customers?: string;
  odinSample?: string;
  simulated?: boolean;
  limit?: number;
}

/**
 * The registry file as coverage reads it, whatever credentials the environment holds: the rows active without any
 * credential, the gated and disabled rows (for the reasons), and the gated rows whose options name a credential_env
 * (statusWithCredentials makes exactly these active once their variable is set).
 */
export function coverageRegistry(registryFile: string): CoverageRegistry {
  const all = loadRegistry(registryFile, { allStatuses: true, env: {} });
  const status = new Map(all.inactive.map((r) => [r.id, r.status]));
  return {
    sources: all.sources.filter((s) => !status.has(s.id)),
    inactive: all.inactive,
    credentialed: all.sources.filter((s) => status.get(s.id) === 'gated' && credentialEnv(s.options) !== null),
  };
}

/** Coverage of a registry file (its active rows, its credentialed rows, and its gated and disabled rows for the reasons). */
export function coverageFor(registryFile: string, opts: CoverageOptions = {}): CoverageData {
  return coverageOf(
    coverageRegistry(registryFile),
    loadCustomerTable(opts.customers ?? CUSTOMERS_FILE),
    loadOdinSample(opts.odinSample ?? ODIN_SAMPLE_FILE),
    { simulated: opts.simulated ?? false, registry: path.basename(registryFile), limit: opts.limit },
  );
}

export function coverageOf(
  registry: CoverageRegistry,
  customers: CustomerRow[],
  odin: string[],
  opts: { simulated: boolean; registry: string; limit?: number },
): CoverageData {
  const c = computeCoverage(registry, customers, odin, { national: opts.limit ?? 20, state: 5 });
  const credentialed = registry.credentialed ?? [];
  const credentials = {
    env: [...new Set(credentialed.map((s) => credentialEnv(s.options) ?? ''))].sort(),
    sources: credentialed.map((s) => s.id).sort(),
  };
  return coverageDoc(c, {
    simulated: opts.simulated,
    registry: opts.registry,
    odin_utilities: new Set(odin).size,
    credentials,
  });
}
