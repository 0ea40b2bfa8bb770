// WEC prints times as Central display text without a year ("Jul 27, 11:48 a.m."); other text is no time.
import { parseLocal } from '../local-time.ts';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SHAPE = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{1,2}):(\d{2})\s*([ap])\.?\s*m\.?$/i;
/** A resolved time further than this from the answer's date is refused rather than put in a guessed year. */
const WINDOW_MS = 60 * 86_400_000;

/**
 * A reader of display times in `zone`. The year is the one that puts the time nearest the answer's HTTP Date
 * (`refMs`), and only within 60 days of it; without a date every time stays null (no clock of our own).
 */
export function timeReader(zone: string, refMs: number | null): (text: string | null | undefined) => string | null {
  // Zone conversion is the costly part: it runs once per local hour (US offsets change on whole hours), not per text.
  const hours = new Map<string, number | null>();
  return (text) => {
    const m = refMs !== null && text ? SHAPE.exec(text.trim()) : null;
    const month = m ? MONTHS.indexOf(m[1].toLowerCase()) + 1 : 0;
    if (!m || refMs === null || month === 0 || +m[3] < 1 || +m[3] > 12 || +m[4] > 59) return null;
    const hour = `${month}/${m[2]} ${m[3]}:00 ${m[5]}m`;
    let start = hours.get(hour);
    if (start === undefined) {
      const iso = parseLocal(hour, zone, refMs);
      hours.set(hour, (start = iso === null ? null : Date.parse(iso)));
    }
    if (start === null) return null;
    const t = start + Number(m[4]) * 60_000;
    return Math.abs(t - refMs) <= WINDOW_MS ? new Date(t).toISOString() : null;
  };
}

/** One display time (see timeReader). */
export function displayTime(text: string | null | undefined, zone: string, refMs: number | null): string | null {
  return timeReader(zone, refMs)(text);
}
