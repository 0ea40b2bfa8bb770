// Browser: the map at a past quarter hour on `/` (issue 25 part 4). A UTC date-time picker, bounded by the archive's
// first quarter and now (its default the latest archived quarter), loads /api/v1/archive/map?at= and fills the county layer from it with the live map's own rules
// (a county absent from the answer had no one out); "Back to live" gives the live fills back. A quarter the poller did
// not reach is said in the answer's own words (its 404 message).
import { countyStatus, describeCounty } from './data.js';
import { UTC_FORMAT } from './times.js';

const QUARTER_MS = 900_000;
/** The site's one formatter of UTC times (times.js): a label here reads as every other time on the site. */
const AT = UTC_FORMAT;
export const utcLabel = (iso) => `${AT.format(new Date(iso))} UTC`;
/** The quarter hour containing now, named by its start as every archived quarter is: never in the future. */
const nowQuarter = () => Math.floor(Date.now() / QUARTER_MS) * QUARTER_MS;
/** The value of an <input type="datetime-local"> that the page reads as UTC (it has no zone of its own). */
const inputValue = (ms) => new Date(ms).toISOString().slice(0, 16);

/** What each drawn county shows at the archived quarter: its entry's fill and words, as the live map gives them. */
export function describePast(map, past, thresholds) {
  const info = new Map();
  for (const { shape } of map.counties.values()) {
    const entry = past.map[shape.fips];
    const status = entry ? countyStatus(entry) : { kind: 'quiet', fill: 'fill-none' };
    info.set(shape.fips, { shape, status, text: describeCounty(shape, status, undefined, thresholds) });
  }
  return info;
}

/**
 * Why the archive cannot answer a time (before its first quarter, or later than now), in words, or null when it can.
 * `min` and `max` are the picker's bounds (its input's min and max values, UTC).
 */
export function outsideArchive(ms, min, max) {
  const first = Date.parse(`${min}:00Z`);
  const last = Date.parse(`${max}:00Z`);
  if (ms < first)
    return `${utcLabel(ms)} is before the archive, which starts at ${utcLabel(first)}: choose a time from then on.`;
  if (ms > last) return `${utcLabel(ms)} has not happened yet: the latest quarter hour to show is ${utcLabel(last)}.`;
  return null;
}

export class PastMap {
  /**
   * o: { map, ui: { form, input, live, status }, paths: { archive, archiveMap }, thresholds, onShow(info, past),
   * onLive() }: onShow after the archived fills are drawn, onLive when the live map is asked for again.
   */
  constructor(o) {
    Object.assign(this, o);
    this.past = null;
    this.ui.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.load(this.ui.input.value);
    });
    this.ui.live.addEventListener('click', () => this.backToLive());
    // A page left open: now moves on, and so does the newest quarter one may ask for.
    this.ui.input.addEventListener('focus', () => {
      const { input } = this.ui;
      if (input.min) input.max = inputValue(Math.max(nowQuarter(), Date.parse(`${input.min}:00Z`)));
    });
  }

  /**
   * Bounds the picker by the archive: its first quarter to the quarter containing now; the default is the latest
   * archived quarter (never later than now). `pending`: its index, already asked for.
   */
  async bound(pending = fetch(this.paths.archive, { cache: 'no-cache', headers: { Accept: 'application/json' } })) {
    const { input, form, status } = this.ui;
    try {
      const res = await pending;
      if (!res.ok) throw new Error(`${this.paths.archive} answered HTTP ${res.status}`);
      const index = (await res.json()).data;
      const first = index?.first_quarter;
      if (!first) {
        status.textContent = 'Nothing is archived yet: the archive keeps every quarter hour from the first cycle on.';
        return;
      }
      input.min = inputValue(Date.parse(first));
      input.max = inputValue(Math.max(nowQuarter(), Date.parse(first)));
      const latest = Date.parse(index.last_quarter ?? first);
      input.value ||= inputValue(Math.max(Date.parse(first), Math.min(latest, nowQuarter())));
      for (const c of form.elements) c.disabled = c === this.ui.live;
      status.textContent = `Archived from ${utcLabel(first)} on; times are UTC, in steps of 15 minutes, each named by the minute it starts.`;
    } catch (err) {
      status.textContent = `The archive is unavailable (${err.message}).`;
    }
  }

  async load(value) {
    const { status } = this.ui;
    const at = `${value}:00Z`;
    if (!value || Number.isNaN(Date.parse(at))) {
      status.textContent = 'Choose a date and time (UTC).';
      return;
    }
    const outside = outsideArchive(Date.parse(at), this.ui.input.min, this.ui.input.max);
    if (outside) {
      status.textContent = outside; // said, not replaced by the nearest archived time
      return;
    }
    status.textContent = `Loading the map at ${utcLabel(at)}…`;
    try {
      const res = await fetch(`${this.paths.archiveMap}?at=${encodeURIComponent(at)}`, {
        headers: { Accept: 'application/json' },
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) {
        status.textContent = body?.data?.error?.message ?? `${this.paths.archiveMap} answered HTTP ${res.status}.`;
        return;
      }
      this.past = body.data;
      this.apply();
      const out = Object.keys(this.past.map).filter((k) => /^\d{5}$/.test(k)).length;
      status.textContent = `Showing the archived map at ${utcLabel(this.past.quarter_at)}: ${out.toLocaleString('en-US')} counties out${this.past.simulated ? ' (SIMULATED data)' : ''}. “Back to the live map” shows the live counties again.`;
    } catch (err) {
      status.textContent = `Could not load the archived map (${err.message}).`;
    }
  }

  /** Draws the archived quarter on the county layer (again after a live refresh redrew it). */
  apply() {
    if (!this.past) return;
    const info = describePast(this.map, this.past, this.thresholds);
    this.map.update((shape) => info.get(shape.fips));
    document.getElementById('map-figure')?.setAttribute('data-past', this.past.quarter_at);
    const banner = document.getElementById('past-banner');
    banner.textContent = `Archived map at ${utcLabel(this.past.quarter_at)}: not live.`;
    banner.hidden = false;
    this.ui.live.disabled = false;
    this.onShow(info, this.past);
  }

  backToLive() {
    if (!this.past) return;
    this.past = null;
    if (document.activeElement === this.ui.live) this.ui.input.focus(); // the button is about to be disabled
    this.ui.live.disabled = true;
    this.ui.status.textContent = 'Showing the live map.';
    document.getElementById('map-figure')?.removeAttribute('data-past');
    document.getElementById('past-banner').hidden = true;
    this.onLive();
  }
}
