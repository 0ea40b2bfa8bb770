// iFactor normalize: data.json gives the headline; each report's area tree gives counties (the first sibling group
// that names counties) and, below them, municipalities/neighbourhoods as areas with their path.
// Masking: a masked count shows `<N` and counts as 1, its lower bound (option `mask_floor`, default 5, for {masked}).
// A count that cannot be read is never 0: its node makes no county or area and is noted in `unreadable` beside
// data.json's headline; without the headline (the total is the report roots' or counties' sum) a record in that sum
// that cannot be read fails the poll naming the field, and a headline present but unreadable fails it too.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, toIso, type AreaCount, type Snapshot } from '../snapshot.ts';
import { SourceError } from '../../errors.ts';
import { readHeadline, readServed, recordReadCount, type ReadCount, type Summed } from './count.ts';
import { addNotes } from '../unreadable.ts';
import { countyLevel, isPlaceholder, nameOf } from './places.ts';
import { parseReport, readSummary, type IfactorArea, type IfactorRaw } from './schema.ts';
import { CountyTally, remembered } from '../checks.ts';
import { normalizeThematic } from './thematic.ts';

interface Walk {
  snap: Snapshot;
  counties: CountyTally;
  states: string[];
  floor: number;
  /** the report being walked: its counties are tallied apart, so one report none of whose counties can be read fails the poll */
  report: number;
}

/** ETR text → ISO, kept across polls: a storm repeats a few ETRs over thousands of areas, poll after poll, and
 * Date.parse is the costly part. */
const isoOf = remembered(toIso);

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const r = (raw ?? {}) as IfactorRaw;
  const floor = typeof source.options.mask_floor === 'number' ? source.options.mask_floor : 5;
  const summary = r.summary === undefined || r.summary === null ? null : readSummary(r.summary);
  if (!Array.isArray(r.reports) && r.thematic === undefined) {
    throw new SourceError(
      'schema',
      'iFactor raw value has neither `reports` (an array of report_*.json bodies) nor `thematic`; fetch returns {directory, summary, reports}',
    );
  }
  // `summed`: the records whose sum stands in for the headline, those of them that cannot be read noted.
  const { snap, summed } =
    r.thematic !== undefined && !r.reports?.length
      ? normalizeThematic(r.thematic, source, floor)
      : normalizeReports(r.reports ?? [], source, floor);
  const headline = readHeadline(summary?.total_cust_a, floor, 'iFactor data.json');
  if (headline) snap.customers_out = headline.out;
  // Without the headline the records' sum stands, and the records it could not read are noted beside it.
  else addNotes(snap.unreadable, summed.notes);
  const served = readServed(summary?.total_cust_s);
  if (served !== null) snap.customers_served = served;
  snap.notice = noticeOf(summary?.page_mode);
  return snap;
}

/** Counties and areas from every report; without data.json the headline is the sum of the report roots. */
function normalizeReports(reports: unknown[], source: SourceDef, floor: number): { snap: Snapshot; summed: Summed } {
  const w: Walk = {
    snap: emptySnapshot(source.utility),
    counties: new CountyTally(),
    states: source.states,
    floor,
    report: 0,
  };
  const summed: Summed = { what: 'iFactor reports', notes: [] };
  let out = 0;
  let served: number | null = 0;
  for (const [i, body] of reports.entries()) {
    const what = `iFactor report ${i + 1} of ${reports.length}`;
    const report = parseReport(body, what);
    for (const [k, top] of report.file_data.areas.entries()) {
      const root = nameOf(top) || `${what}, root ${k + 1}`;
      // Read only without data.json's headline, and then a root noted here fails the poll (normalize).
      // A root whose count cannot be read is noted and left out of the sum, never added as 0.
      const count = recordReadCount(top.cust_a, floor, 'cust_a', root, summed.notes);
      if (count) out += count.out;
      const s = readServed(top.cust_s);
      served = served === null || s === null ? null : served + s;
    }
    w.report = i + 1;
    walkGroup(w, report.file_data.areas, []);
  }
  const snap = w.snap;
  snap.counties = w.counties.sorted();
  snap.customers_out = out;
  snap.customers_served = reports.length ? served : null;
  snap.basis = snap.counties.length > 0 ? 'county' : 'utility_total';
  return { snap, summed };
}

/** A sibling group above the county level: counties when every named node is one, else regions or unplaced towns. */
function walkGroup(w: Walk, nodes: IfactorArea[], path: string[]): void {
  const level = countyLevel(nodes, w.states);
  for (const node of nodes) {
    const name = nameOf(node);
    if (!name)
      walkGroup(w, node.areas ?? [], path); // a report's nameless root
    else if (level?.has(node)) {
      const fips = level.get(node)!;
      // A county whose own count cannot be read is no county (its areas are still listed).
      const count = recordReadCount(
        node.cust_a,
        w.floor,
        `report ${w.report} county cust_a`,
        [...path, name].join(' / '),
        w.snap.unreadable,
      );
      if (count) w.counties.add(fips, count.out, readServed(node.cust_s));
      walkAreas(w, node.areas ?? [], [...path, name], fips);
    } else if (node.areas?.length) walkGroup(w, node.areas, [...path, name]);
    else if (!isPlaceholder(name)) {
      const here = [...path, name];
      const count = recordReadCount(node.cust_a, w.floor, 'cust_a', here.join(' / '), w.snap.unreadable);
      if (count) w.snap.areas.push(areaOf(node, name, here, null, count));
      if (count?.out) w.snap.unmatched.push(here.join(' / '));
    }
  }
}

/** Everything below a county: areas with the county's FIPS. Placeholders are skipped (already in the county's count). */
function walkAreas(w: Walk, nodes: IfactorArea[], path: string[], fips: string): void {
  for (const node of nodes) {
    const name = nameOf(node);
    if (name && isPlaceholder(name)) continue;
    const here = name ? [...path, name] : path;
    const count = name ? recordReadCount(node.cust_a, w.floor, 'cust_a', here.join(' / '), w.snap.unreadable) : null;
    if (name && count) w.snap.areas.push(areaOf(node, name, here, fips, count));
    if (node.areas?.length) walkAreas(w, node.areas, here, fips);
  }
}

function areaOf(node: IfactorArea, name: string, path: string[], fips: string | null, c: ReadCount): AreaCount {
  const etr = node.etr ? isoOf(node.etr) : null;
  return {
    fips,
    name,
    path,
    customers_out: c.out,
    out_display: c.display,
    out_lower: c.masked ? 1 : c.out,
    out_upper: c.upper,
    masked: c.masked,
    customers_served: readServed(node.cust_s),
    etr,
    bbox: null,
  };
}

/** A paused or redirected map publishes nothing new: say so, so a flat line is not read as "nothing changed". */
function noticeOf(
  mode: { redirectURL?: string | null; pausePublish?: boolean | null } | null | undefined,
): string | null {
  if (mode?.pausePublish)
    return 'The utility has paused publishing (data.json page_mode.pausePublish): these are the last figures it published.';
  if (mode?.redirectURL)
    return `The utility's outage map redirects to ${mode.redirectURL}: these files may not be current.`;
  return null;
}
