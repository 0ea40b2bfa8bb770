// Browser and feeds: how a time reads (issue 38 part 3; spec: "every time a person reads says its zone"). One rule for
// the site, its embeds, the event titles and the feeds: a date and a 24-hour clock in UTC, the zone named — "Sep 1,
// 2026, 04:00 UTC" — the zone the API, the archive and the past-map picker use, so a time read on a page is the time
// to ask the API for. The reader's own clock, with its zone's abbreviation, is the tooltip of a <time> (site.js).
// No DOM and no imports: the pipeline's event titles and feeds import this module as it is.

/** Date and clock in UTC, without the zone's name (timeText adds it); past-map.js formats its picker's label with it. */
export const UTC_FORMAT = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const NO_YEAR = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const CLOCK = new Intl.DateTimeFormat('en-US', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
/** The reader's zone, named by its abbreviation where it has one (EDT), else its offset (GMT+2). */
const LOCAL = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/**
 * A formatter of ISO strings or epoch ms, `zone` named after it; a text no clock can read stays as it is (upstream
 * text is shown, not lost). ICU's narrow no-break space before AM/PM becomes a plain one (the feeds and tests read it).
 */
const say =
  (format, zone = '') =>
  (t) => {
    const d = new Date(t);
    return Number.isNaN(d.getTime()) ? String(t) : `${format.format(d).replace(/\u202f/g, ' ')}${zone}`;
  };

/** "Sep 1, 2026, 04:00 UTC": every time the site and the feeds show. */
export const timeText = say(UTC_FORMAT, ' UTC');
/** "Sep 1, 04:00 UTC": inside a span the reader sees whole (the past week, the last 24 hours). */
export const shortTimeText = say(NO_YEAR, ' UTC');
/** "04:00:12 UTC": the clock of something that just happened ("Updated …"). */
export const clockText = say(CLOCK, ' UTC');
/** "Sep 1, 2026, 12:00 AM EDT": the same moment on the reader's own clock (a tooltip, never the time itself). */
export const localTimeText = say(LOCAL);
