// Recorded Duke files as the connector's fetch returns them (registry/check.ts's rawOf): a scraper's reshaping undone.
// simonw/disaster-data's DukeEnergyScraper saved the `data` list bare, each `areaOfInterestSummary` flattened into
// `summary_*` keys; outage-atlas's fixture bundles two answers as `{summary, counties}`. A wire answer passes as is.
import { isObj, type Obj } from '../checks.ts';

const PREFIX = 'summary_';

/** One flattened row with its `summary_*` keys folded back into `areaOfInterestSummary` (other keys untouched). */
function unflatten(row: unknown): unknown {
  if (!isObj(row) || !Object.keys(row).some((k) => k.startsWith(PREFIX))) return row;
  const out: Obj = {};
  const summary: Obj = {};
  for (const [k, v] of Object.entries(row)) {
    if (k.startsWith(PREFIX)) summary[k.slice(PREFIX.length)] = v;
    else out[k] = v;
  }
  out.areaOfInterestSummary = summary;
  return out;
}

/** The counties answer a recorded Duke file stands for. */
export function recordedRaw(doc: unknown): unknown {
  if (Array.isArray(doc)) return { data: doc.map(unflatten), errorMessages: [] };
  if (isObj(doc) && isObj(doc.counties)) return doc.counties;
  return doc;
}
