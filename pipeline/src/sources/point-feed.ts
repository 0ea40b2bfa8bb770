// A point feed's snapshot: outages listed as points with a customer count, each an incident placed in a county by its
// point (counties of the row's states only: a point beyond them is misplaced, not guessed), the placed incidents summed
// per county, customers out the feed's own headline or else the incidents' sum. The loop the point-list connectors
// (gridvu, mlgw, nwe, teco, tep, puget, novec, sienatech, snopud, aes, anaheim, pointlist, nisource …) share.
import { locatePoint } from '../geo/match.ts';
import { findState } from '../geo/states.ts';
import { placedCounties } from './checks.ts';
import { OutageIds } from './outage-ids.ts';
import type { SourceDef } from './source-def.ts';
import { type CoverageClass, emptySnapshot, type Incident, type Snapshot } from './snapshot.ts';
import { recordCount } from './unreadable.ts';

/** A point an outage can be placed by. */
export interface Point {
  lat: number;
  lon: number;
}

/** The point at lat/lon, or null when either is missing or not a number, it is off the globe, or it is 0,0 (a feed's
 * "no point"). */
export function pointAt(lat: number | null | undefined, lon: number | null | undefined): Point | null {
  if (lat === null || lat === undefined || lon === null || lon === undefined) return null;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180) || (lat === 0 && lon === 0)) return null;
  return { lat, lon };
}

/** One poll of a point feed: the snapshot its incidents go into, the row's states and the incident ids taken. */
export class PointFeed {
  readonly snap: Snapshot;
  private readonly stateFips: Set<string | undefined>;
  private readonly ids = new OutageIds();

  constructor(source: SourceDef) {
    this.snap = emptySnapshot(source.utility);
    this.stateFips = new Set(source.states.map((s) => findState(s)?.fips));
  }

  /** Whether the county lies in one of the row's states. */
  inStates(fips: string): boolean {
    return this.stateFips.has(fips.slice(0, 2));
  }

  /** The county the point lies in when it is one of the row's states, else null. */
  county(point: Point | null): string | null {
    const fips = point ? locatePoint(point.lon, point.lat) : null;
    return fips && this.inStates(fips) ? fips : null;
  }

  /** An id made up from where the outage is (a point, a place), unique in this poll (OutageIds.made). */
  id(base: string): string {
    return this.ids.made(base);
  }

  /** The feed's own outage id when the record gives one, else `made` made unique (OutageIds.idOf). */
  idOf(own: unknown, made: string): string {
    return this.ids.idOf(own, made);
  }

  /** Lists the incident, unless it repeats an own id already listed: one outage, counted once (OutageIds.once). */
  add(incident: Incident): void {
    const listed = this.ids.once(incident);
    if (listed) this.snap.incidents.push(listed);
  }

  /**
   * An outage's count (recordCount): null, noted in the snapshot's `unreadable`, when it cannot be read; the caller
   * then adds no incident for it.
   */
  count(v: unknown, field: string, record: string): number | null {
    return recordCount(v, field, record, this.snap.unreadable);
  }

  /**
   * The snapshot: the placed incidents summed per county (the unplaced make one `unmatched` line, `<noun>(s) not
   * placed …`), customers out the feed's `headline` or else the incidents' sum. County grade when an incident is
   * placed or none is listed; otherwise `unplaced` (a feed whose headline stands without counties says so).
   */
  finish(noun: string, headline: number | null = null, unplaced: CoverageClass = 'outage_only'): Snapshot {
    const { snap } = this;
    snap.counties = placedCounties(snap.incidents, snap.unmatched, noun);
    snap.customers_out = headline ?? snap.incidents.reduce((s, i) => s + i.customers_out, 0);
    const placed = snap.counties.length > 0 || snap.incidents.length === 0 || snap.incidents.some((i) => i.fips);
    snap.basis = placed ? 'county' : unplaced;
    return snap;
  }
}
