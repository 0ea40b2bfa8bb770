// Avangrid normalize: town rows are areas placed by the county they name; street rows are incidents; counties come
// from the county answer's features (out and served), or from the towns when that answer lists none. Totals are the
// county answer's own (customers out and served for the whole opco). A row whose count cannot be read is never 0: it
// is left out and noted in `unreadable` beside that headline; without the headline (the towns' sum) it fails the poll.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type AreaCount, type Incident, type Snapshot } from '../snapshot.ts';
import { locatePoint, matchCounty } from '../../geo/match.ts';
import { findState } from '../../geo/states.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { CountyTally, countOf, newIncident } from '../checks.ts';
import { optHeadlineCount, recordCount } from '../unreadable.ts';
import { pointOf, readRaw, type AvangridFeature, type AvangridProps, WHAT } from './schema.ts';

interface Context {
  states: string[];
  fipsOfStates: Set<string | undefined>;
  zone: string;
}

/** The county the row names (in the first of the row's states that has it), else the county of its point if any. */
function placeOf(f: AvangridFeature, ctx: Context): string | null {
  const name = f.properties.county?.trim();
  for (const s of name ? ctx.states : []) {
    const fips = matchCounty(s, name!);
    if (fips) return fips;
  }
  const point = pointOf(f);
  const fips = point ? locatePoint(point[0], point[1]) : null;
  return fips && ctx.fipsOfStates.has(fips.slice(0, 2)) ? fips : null;
}

/** `7/16/2026 6:30:00 PM` in the opco's zone; '' and other text give null. parseLocal reads minutes, not seconds. */
export function etrOf(text: string | null | undefined, zone: string): string | null {
  const t = text?.trim().replace(/^(\S+ \d{1,2}:\d{2}):\d{2}/, '$1');
  return t ? parseLocal(t, zone, 0) : null;
}

/** Customers out of a row; null, noted in `unreadable`, when it cannot be read (never guessed, never 0). */
function outOf(p: AvangridProps, level: string, unreadable: string[]): number | null {
  const name =
    [p.county, p.town, p.street]
      .map((x) => x?.trim())
      .filter(Boolean)
      .join(', ') || '(no name)';
  return recordCount(p.Outages, 'Outages', `${level} ${name}`, unreadable);
}

const levelOf = (p: AvangridProps): string =>
  p.level?.trim().toLowerCase() || (p.street ? 'street' : p.town ? 'town' : 'county');

function areaOf(f: AvangridFeature, fips: string | null, out: number, path: string[], zone: string): AreaCount {
  const p = f.properties;
  return {
    fips,
    name: p.town?.trim() ?? '',
    path,
    customers_out: out,
    out_display: String(out),
    out_lower: out,
    out_upper: out,
    masked: false,
    customers_served: countOf(p.customers),
    etr: etrOf(p.EstRest, zone),
    bbox: null,
  };
}

/** Unique within the answer: the same key met again gets `#2`, `#3`, …. */
function unique(base: string, seen: Set<string>): string {
  let id = base;
  for (let k = 2; seen.has(id); k += 1) id = `${base}#${k}`;
  seen.add(id);
  return id;
}

/** [county, town] as the opco names them; the same pair met again (never seen so far) gets `#2`, `#3`, …. */
function areaPath(p: AvangridProps, seen: Set<string>): string[] {
  const county = p.county?.trim() ?? '';
  const town = p.town?.trim() ?? '';
  const key = unique(`${county}|${town}`, seen);
  return [county, town + key.slice(county.length + 1 + town.length)];
}

function incidentOf(f: AvangridFeature, fips: string | null, out: number, ids: Set<string>, zone: string): Incident {
  const p = f.properties;
  const point = pointOf(f);
  const own = p.incidentnumber === null || p.incidentnumber === undefined ? '' : String(p.incidentnumber).trim();
  return newIncident({
    id: unique(own || `${p.town?.trim() ?? ''}|${p.street?.trim() ?? ''}`, ids),
    fips,
    customers_out: out,
    etr: etrOf(p.EstRest, zone),
    crew_status: p.crewstatus?.trim() || null,
    cause: p.cause?.trim() || null,
    started_at: null,
    lat: point ? point[1] : null,
    lon: point ? point[0] : null,
    city: p.town?.trim() || p.hamlet?.trim() || null,
  });
}

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const answer = readRaw(raw);
  const ctx: Context = {
    states: source.states,
    fipsOfStates: new Set(source.states.map((s) => findState(s)?.fips)),
    zone: zoneFor(source.states, source.options.time_zone),
  };
  const snap = emptySnapshot(source.utility);
  const towns = new CountyTally();
  const seen = { paths: new Set<string>(), ids: new Set<string>(), lost: 0, lostOut: 0 };
  for (const f of answer.towns) {
    const level = levelOf(f.properties);
    if (level !== 'town' && level !== 'street') continue; // a county row in the town answer: the county answer's
    const out = outOf(f.properties, level, snap.unreadable);
    if (out === null) continue;
    const fips = placeOf(f, ctx);
    if (level === 'street') {
      snap.incidents.push(incidentOf(f, fips, out, seen.ids, ctx.zone));
      continue;
    }
    snap.areas.push(areaOf(f, fips, out, areaPath(f.properties, seen.paths), ctx.zone));
    if (fips) towns.add(fips, out, null);
    else if (out > 0) {
      seen.lost += 1;
      seen.lostOut += out;
    }
  }
  if (seen.lost) snap.unmatched.push(`${seen.lost} town(s) not placed in a county (${seen.lostOut} customers out)`);
  snap.counties = answer.counties?.length ? countiesOf(answer.counties, ctx, snap) : towns.sorted();
  const headline = optHeadlineCount(answer.outages, 'outages', WHAT);
  snap.customers_out = headline ?? snap.areas.reduce((s, a) => s + a.customers_out, 0);
  snap.customers_served = countOf(answer.customers);
  snap.basis = 'county';
  return snap;
}

/** The county answer's rows: each county's customers out and served, as the opco counts them. */
function countiesOf(features: AvangridFeature[], ctx: Context, snap: Snapshot) {
  const tally = new CountyTally();
  for (const f of features) {
    const out = outOf(f.properties, 'county', snap.unreadable);
    if (out === null) continue;
    const fips = placeOf(f, ctx);
    if (fips) tally.add(fips, out, countOf(f.properties.customers));
    else if (out > 0)
      snap.unmatched.push(`county ${f.properties.county ?? '(no name)'} not placed (${out} customers out)`);
  }
  return tally.sorted();
}
