// ODIN per utility: the records summed by utility number (meters out, records, states). Used to reconcile a deep
// row with ODIN and to list which utilities a recorded ODIN capture shows reporting.
import { recordUtility, type OdinRecord } from './schema.ts';

export interface OdinUtility {
  /** ODIN's utility_id (canonical digits), null when a record has none */
  utility_id: string | null;
  /** the utility's name without the ",ID" ending */
  name: string;
  /** meters out summed over the utility's records */
  meters: number;
  records: number;
  /** state names as ODIN gives them, sorted */
  states: string[];
}

/** Every utility in the records, most meters out first (then by id). */
export function odinUtilities(records: readonly OdinRecord[]): OdinUtility[] {
  const by = new Map<string, OdinUtility & { stateSet: Set<string> }>();
  for (const r of records) {
    const id = recordUtility(r);
    const name = (r.name ?? '').replace(/,\s*\d+\s*$/, '').trim();
    const key = id ?? `name:${name}`;
    let u = by.get(key);
    if (!u) by.set(key, (u = { utility_id: id, name, meters: 0, records: 0, states: [], stateSet: new Set() }));
    u.records += 1;
    if (typeof r.metersaffected === 'number' && r.metersaffected > 0) u.meters += Math.round(r.metersaffected);
    if (r.state) u.stateSet.add(r.state);
  }
  return [...by.values()]
    .map(({ stateSet, ...u }) => ({ ...u, states: [...stateSet].sort() }))
    .sort((a, b) => b.meters - a.meters || String(a.utility_id).localeCompare(String(b.utility_id)));
}
