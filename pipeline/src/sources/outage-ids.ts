// An answer's outages by id (issue 36 part 2). The feed's own outage id names one outage however often the answer
// lists it (a polygon layer draws one outage as several polygons, a list repeats a row across its pages or tiles), so
// it is counted once, with the largest count any of its records gives (each repeat carries the outage's whole count,
// never a share of it). An id we make up from where an outage is (a point, a place and a time) only numbers the
// outages found there: two at one point are two, `base`, `base#2`, `base#3` ….
import type { Incident } from './snapshot.ts';

/** A feed's own id as text: a number, or a string with something in it; else null (the caller makes one up). */
export function ownId(v: unknown): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t ? t : null;
}

export class OutageIds {
  private readonly taken = new Set<string>();
  /** own ids given out, with the incident first listed under each (once it is) */
  private readonly own = new Map<string, Incident | undefined>();
  /** `base`, or `base#2`, `base#3` … when the answer has taken it already (two outages at one point). */
  made(base: string): string {
    let id = base;
    for (let k = 2; this.taken.has(id); k += 1) id = `${base}#${k}`;
    this.taken.add(id);
    return id;
  }

  /** The feed's own id when it gives one (`own`, read by ownId), else `made` made unique. */
  idOf(own: unknown, made: string): string {
    const id = ownId(own);
    if (id === null) return this.made(made);
    if (!this.own.has(id)) this.own.set(id, undefined);
    this.taken.add(id);
    return id;
  }

  /**
   * The incident, or null when it repeats an own id already listed: the first one keeps the larger count, and the
   * repeat is no second outage.
   */
  once(incident: Incident): Incident | null {
    if (!this.own.has(incident.id)) return incident;
    const first = this.own.get(incident.id);
    if (first === undefined) {
      this.own.set(incident.id, incident);
      return incident;
    }
    first.customers_out = Math.max(first.customers_out, incident.customers_out);
    return null;
  }
}
