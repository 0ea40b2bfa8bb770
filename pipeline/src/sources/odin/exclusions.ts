// Which utilities ODIN must drop: every EIA-861 utility number of an active deep (non-ODIN) row, so no customer is
// counted twice (issue "Real national coverage", part 4). Pure; the pipeline applies it when it loads the registry.
import type { SourceDef } from '../source-def.ts';
import { utilityKey } from './schema.ts';

/** What the exclusions need of a registry row: SourceDef with its `eia_ids` (`;`-separated `eia_id` column). */
export type EiaSource = Pick<SourceDef, 'id' | 'connector' | 'options'> & { eia_ids: readonly string[] };

/**
 * The utility numbers of the deep rows among `sources`, sorted numerically. Pass the active rows only (what
 * loadRegistry returns): a gated or disabled row polls nothing, so ODIN must keep reporting its utility.
 */
export function odinExclusions(sources: readonly EiaSource[]): string[] {
  const ids = new Set<string>();
  for (const s of sources) {
    if (s.connector === 'odin') continue;
    for (const id of s.eia_ids) {
      const key = utilityKey(id);
      if (key !== null) ids.add(key);
    }
  }
  return [...ids].sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
}

/**
 * The sources with every ODIN row's `exclude_utility_ids` filled in: the row's own list (for ODIN ids that are not
 * an EIA number of the deep row) joined with odinExclusions. Other rows are returned as they are.
 */
export function withOdinExclusions<T extends EiaSource>(sources: readonly T[]): T[] {
  const derived = odinExclusions(sources);
  return sources.map((s) => {
    if (s.connector !== 'odin') return s;
    const own = Array.isArray(s.options.exclude_utility_ids) ? s.options.exclude_utility_ids.map(String) : [];
    const all = [...new Set([...own.map((x) => utilityKey(x) ?? x), ...derived])];
    return { ...s, options: { ...s.options, exclude_utility_ids: all } };
  });
}
