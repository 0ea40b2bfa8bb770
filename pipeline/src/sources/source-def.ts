// A source as the connectors see it: which connector reads it, and the registry row's fields they use. The registry
// (pipeline/src/registry/) reads these rows from data/sources.csv and checks them; the connectors only read them.
export const CONNECTORS = [
  'kubra',
  'nisc',
  'arcgis',
  'odin',
  'fpl',
  'milsoft',
  'outageentry',
  'datacapable',
  'ifactor',
  'omap',
  'pacificorp',
  'smartc',
  'wec',
  'puget',
  'nisource',
  'pgegraphql',
  'midamerican',
  'smud',
  'idahopower',
  'mlgw',
  'tep',
  'nwe',
  'aes',
  'teco',
  'kub',
  'clarkpud',
  'novec',
  'luma',
  'anaheim',
  'gridvu',
  'sienatech',
  'duke',
  'avangrid',
  'pointlist',
  'heco',
  'elpaso',
  'snopud',
  'gmp',
  'liberty',
  'chugach',
  'milsoftmobile',
] as const;
export type ConnectorName = (typeof CONNECTORS)[number];
/**
 * What proves a row's feed is read right (issue 23 part 4): `own` (a real capture of this row's feed is a fixture),
 * `platform` (only another utility's capture of the platform), `none` (a hand-made sample or nothing).
 */
export const EVIDENCE = ['own', 'platform', 'none'] as const;
export type Evidence = (typeof EVIDENCE)[number];

export interface SourceDef {
  id: string;
  utility: string;
  /** postal codes of the states the source covers; the first is the default for county-name matching */
  states: string[];
  connector: ConnectorName;
  url: string;
  interval_min: number;
  tier: 1 | 2 | 3;
  options: Record<string, unknown>;
  /** customers the utility serves (e.g. from EIA-861), for coverage when the feed does not publish it */
  customers: number | null;
  /** EIA-861 utility numbers (`eia_id`, `;`-separated): ODIN drops these utilities, coverage counts their customers */
  eia_ids: string[];
  /** the registry's `evidence` column; null where a registry has none (tests, the simulator) */
  evidence?: Evidence | null;
}
