// Which county detail documents a cycle must rebuild. Areas and incidents change only when a source's snapshot
// changes (state/store.ts writeOutcomes), so a storm cycle reloads and re-renders the counties its changed sources list
// now or listed before, and carries every other county's files over untouched.
import type { Db } from '../state/db.ts';
import type { AreaRecord } from '../contract/county-detail.ts';

const listOf = (items: Iterable<string>) => `[${[...items].join(',')}]`;

/** source id → the counties it has areas or incidents in; `ids` null reads every source. */
async function sourceCounties(db: Db, ids: string[] | null): Promise<Map<string, Set<string>>> {
  const only = ids ? 'AND source_id IN (SELECT unnest(?::VARCHAR[]))' : '';
  const rows = await db.all<{ source_id: string; fips: string }>(
    `SELECT DISTINCT source_id, fips FROM obs_area WHERE fips IS NOT NULL ${only}
     UNION SELECT DISTINCT source_id, fips FROM obs_incident WHERE fips IS NOT NULL ${only}`,
    ids ? [listOf(ids), listOf(ids)] : [],
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) (out.get(r.source_id) ?? out.set(r.source_id, new Set()).get(r.source_id)!).add(r.fips);
  return out;
}

/**
 * Held by the pipeline across cycles. Dirty marks survive until a publish commits, so a publish that failed is redone
 * in full for the counties it did not switch in. The areas of counties with an outage are kept for their alerts.
 */
export class DetailCache {
  private fipsOf: Map<string, Set<string>> | null = null;
  private everything = true;
  private readonly dirty = new Set<string>();
  private readonly areas = new Map<string, AreaRecord[]>();
  /** per state, the counties with nothing out that its quiet-areas file was written for */
  private readonly quietWritten = new Map<string, string>();
  private readonly quietPending = new Map<string, string>();

  /** After a cycle's observations are stored: the counties the changed sources list now or listed before. */
  async noteChanged(db: Db, changedSourceIds: string[]): Promise<void> {
    if (this.fipsOf === null) {
      this.fipsOf = await sourceCounties(db, null);
      this.everything = true;
      return;
    }
    if (changedSourceIds.length === 0) return;
    const now = await sourceCounties(db, changedSourceIds);
    for (const id of changedSourceIds) {
      for (const f of this.fipsOf.get(id) ?? []) this.dirty.add(f);
      for (const f of now.get(id) ?? []) this.dirty.add(f);
      this.fipsOf.set(id, now.get(id) ?? new Set());
    }
  }

  /** Everything is rebuilt by the next publish (`outage build`, or a cache that has not seen the store yet). */
  invalidateAll(): void {
    this.everything = true;
    this.areas.clear();
  }

  /** A publish starts: what an earlier publish that failed meant to record is forgotten. */
  begin(): void {
    this.quietPending.clear();
  }

  isDirty(fips: string): boolean {
    return this.everything || this.dirty.has(fips);
  }

  areasOf(fips: string): AreaRecord[] | undefined {
    return this.areas.get(fips);
  }

  setAreas(fips: string, areas: AreaRecord[]): void {
    this.areas.set(fips, areas);
  }

  /** True when the state's quiet-areas file must be rewritten: a county of it is dirty or went out or quiet. */
  quietStale(state: string, quietFips: string[]): boolean {
    const sig = quietFips.join(',');
    return this.everything || this.quietWritten.get(state) !== sig || quietFips.some((f) => this.dirty.has(f));
  }

  quietWrote(state: string, quietFips: string[]): void {
    this.quietPending.set(state, quietFips.join(','));
  }

  /** After the publish committed: the next cycle starts clean; areas of counties no longer out are dropped. */
  committed(outFips: ReadonlySet<string>): void {
    this.everything = false;
    this.dirty.clear();
    for (const [state, sig] of this.quietPending) this.quietWritten.set(state, sig);
    this.quietPending.clear();
    for (const f of this.areas.keys()) if (!outFips.has(f)) this.areas.delete(f);
  }
}
