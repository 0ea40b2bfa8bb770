// TEP normalize: the outages of the row's divisions (options.division, one code or a list, TEP by default) are
// incidents placed in a county by their own point, else their box's centre (the row's states only); customers_out is
// those divisions' AffectedCustomers headlines, summed.
import type { SourceDef } from '../source-def.ts';
import type { Incident, Snapshot } from '../snapshot.ts';
import { parseLocal, zoneFor } from '../local-time.ts';
import { type AnswerTimes, DisplayTimes, decimalOf, newIncident } from '../checks.ts';
import { optHeadlineCount } from '../unreadable.ts';
import { PointFeed, pointAt } from '../point-feed.ts';
import { HOST_DIVISION, WHAT, divisionsOf, readAnswer, readRaw, type TepOutage } from './schema.ts';

/** No planned flag was seen (`event` is Active or Unplanned); an event that says "planned" is taken as one. */
const PLANNED = /(^|[^a-z])planned/i;
export const isPlanned = (o: TepOutage): boolean => typeof o.event === 'string' && PLANNED.test(o.event);

/** The peer's rule: an outage without a division tag is the host utility's (TEP's). */
const divisionTag = (o: TepOutage): string => o.division?.trim().toUpperCase() || HOST_DIVISION;

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const divisions = divisionsOf(source.options);
  const { captured_at, answer } = readRaw(raw);
  const data = readAnswer(answer, divisions);
  const refMs = captured_at ? Date.parse(captured_at) : Number.NaN;
  const zone = zoneFor(source.states, source.options.time_zone);
  const clock = times.of(zone, refMs, (text) => etrOf(text, zone, refMs));
  const feed = new PointFeed(source);
  let plannedOut = 0;
  data.outages.forEach((o, i) => {
    if (!divisions.includes(divisionTag(o))) return;
    const out = feed.count(o.customersOut, 'customersOut', `outage ${i}`);
    if (out === null) return;
    // Planned work in progress leaves customers without power: counted, and flagged.
    if (isPlanned(o)) plannedOut += out;
    feed.add(incidentOf(o, out, feed, clock));
  });
  // The divisions' own headlines, summed; the incidents' sum stands in when the answer has none for one of them.
  const snap = feed.finish('point', headlineOf(data.headlines));
  snap.planned_out = plannedOut;
  return snap;
}

/** The divisions' headlines summed (each must be readable), or null when one of them is absent. */
function headlineOf(headlines: Map<string, string | number | null | undefined>): number | null {
  let total = 0;
  for (const [d, v] of headlines) {
    const n = optHeadlineCount(v, `AffectedCustomers${d}`, WHAT);
    if (n === null) return null;
    total += n;
  }
  return total;
}

/** A resolved ETR further than this from the answer's date is refused rather than put in a guessed year. */
const WINDOW_MS = 60 * 86_400_000;
/** ETRs, remembered across polls: a storm's outages come back poll after poll with the same texts. */
const times = new DisplayTimes(WINDOW_MS);

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SHAPE = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?$/i;

/**
 * `Jun 24, 8:17 PM` (no year) as ISO UTC: read in `zone` (America/Phoenix, no DST), the year the one that puts it
 * nearest the answer's HTTP Date, and only within 60 days of it. Without a date, or for other text, null.
 */
export function etrOf(text: string, zone: string, refMs: number): string | null {
  const m = SHAPE.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[1].toLowerCase()) + 1 : 0;
  if (!m || month === 0 || Number.isNaN(refMs) || +m[3] < 1 || +m[3] > 12 || +m[4] > 59) return null;
  const iso = parseLocal(`${month}/${m[2]} ${m[3]}:${m[4]} ${m[5]}m`, zone, refMs);
  return iso !== null && Math.abs(Date.parse(iso) - refMs) <= WINDOW_MS ? iso : null;
}

function textOf(v: string | null | undefined): string | null {
  const t = v?.trim();
  return t ? t : null;
}

const coord = (v: number | string | null | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? decimalOf(v.trim()) : null;

function incidentOf(o: TepOutage, out: number, feed: PointFeed, clock: AnswerTimes): Incident {
  // The outage's own point first; the centre of its box only when it has none.
  const point =
    pointAt(coord(o.coordLat), coord(o.coordLng)) ??
    pointAt(coord(o.bounds?.coordLatCenter), coord(o.bounds?.coordLngCenter));
  return newIncident({
    // The feed has no outage ids: an outage's point stays put while it lasts.
    id: feed.id(point ? `${point.lat},${point.lon}` : 'outage'),
    fips: feed.county(point),
    customers_out: out,
    etr: clock.at(o.formattedEstimatedRestoration),
    crew_status: null,
    cause: textOf(o.updatedCause),
    started_at: null,
    lat: point?.lat ?? null,
    lon: point?.lon ?? null,
    city: null,
    planned: isPlanned(o),
  });
}
