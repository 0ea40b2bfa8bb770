// The simulated utilities: every state's counties split among a few utilities (each a source in one vendor format),
// plus a co-op in some states that serves part of a few counties, so overlapping sources must add up.
import { STATES } from '../geo/states.ts';
import type { ConnectorName } from '../sources/source-def.ts';
import type { Scenario } from './scenario.ts';
import { unit } from './random.ts';

export interface SimUtility {
  id: string;
  name: string;
  state: string;
  connector: Extract<ConnectorName, 'kubra' | 'nisc' | 'arcgis' | 'fpl'>;
  /** fips → share of the county's customers this utility serves */
  counties: Map<string, number>;
  interval_min: number;
  tier: 1 | 2 | 3;
}

export interface UtilityPlan {
  /** roughly how many sources to create nationally (at least one per state) */
  sources: number;
}

const FORMATS: SimUtility['connector'][] = ['kubra', 'nisc', 'arcgis'];
const CO_OP_SHARE = 0.15;

export function planUtilities(scenario: Scenario, plan: UtilityPlan): SimUtility[] {
  const seed = scenario.options.seed;
  const utilities: SimUtility[] = [];
  const total = scenario.counties.length;
  for (const st of STATES) {
    const counties = scenario.counties
      .filter((c) => c.state === st.code)
      .sort((a, b) => a.centroid[0] - b.centroid[0] || a.fips.localeCompare(b.fips));
    if (counties.length === 0) continue;
    const n = Math.max(1, Math.min(counties.length, Math.round((plan.sources * counties.length) / total)));
    const coOp = counties.length >= 10 && unit(seed, 'coop', st.code) < 0.5;
    const coOpCounties = coOp ? counties.filter((_, i) => i % 7 === 3) : [];
    for (let k = 0; k < n; k++) {
      const chunk = counties.slice(Math.floor((k * counties.length) / n), Math.floor(((k + 1) * counties.length) / n));
      const connector = st.code === 'FL' && k === 0 ? 'fpl' : FORMATS[(k + st.code.charCodeAt(0)) % FORMATS.length];
      const shares = new Map(
        chunk.map((c) => [c.fips, coOpCounties.some((x) => x.fips === c.fips) ? 1 - CO_OP_SHARE : 1]),
      );
      utilities.push({
        id: `sim-${st.code.toLowerCase()}-${k + 1}`,
        name: `${st.name} Power ${String.fromCharCode(65 + (k % 26))}${k >= 26 ? Math.floor(k / 26) : ''} (simulated)`,
        state: st.code,
        connector,
        counties: shares,
        interval_min: [5, 10, 15][k % 3],
        tier: (k === 0 ? 1 : k < 3 ? 2 : 3) as 1 | 2 | 3,
      });
    }
    if (coOp) {
      utilities.push({
        id: `sim-${st.code.toLowerCase()}-coop`,
        name: `${st.name} Rural Electric Cooperative (simulated)`,
        state: st.code,
        connector: 'nisc',
        counties: new Map(coOpCounties.map((c) => [c.fips, CO_OP_SHARE])),
        interval_min: 15,
        tier: 3,
      });
    }
  }
  return utilities;
}
