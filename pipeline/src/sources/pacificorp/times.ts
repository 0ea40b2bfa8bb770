// PacifiCorp prints times as local text without a year ("Before 05:30 PM on 09/27", "12:24 PM on 03/02").
import { parseLocal } from '../local-time.ts';

/** "[Before ]hh:mm AM on MM/DD"; anything else ("Assessing", blanks) is not a time. */
const SHAPE = /^(?:before\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\/(\d{1,2})$/i;
/** A resolved time further than this from the answer's date is refused rather than put in a guessed year. */
const WINDOW_MS = 60 * 86_400_000;

/** The text as "03/02 12:24 PM" (also the id suffix), or null when it is not a 12-hour clock time. */
export function wallText(text: string | null | undefined): string | null {
  const m = text ? SHAPE.exec(text.trim()) : null;
  if (!m || +m[1] < 1 || +m[1] > 12 || +m[2] > 59) return null;
  return `${m[4].padStart(2, '0')}/${m[5].padStart(2, '0')} ${m[1].padStart(2, '0')}:${m[2]} ${m[3].toUpperCase()}M`;
}

/**
 * A reader of map times in `zone`. The year is the one that puts the time nearest the answer's HTTP Date (`refMs`),
 * and only within 60 days of it; without a date (a fixture saved without one) every time stays null.
 * "Before X" is an upper bound the utility promises, so X itself is the ETR.
 */
export function timeReader(zone: string, refMs: number | null): (text: string | null | undefined) => string | null {
  // Zone conversion is the costly part: it runs once per local hour (US offsets change on whole hours), not per text.
  const hours = new Map<string, number | null>();
  return (text) => {
    const wall = refMs === null ? null : wallText(text);
    if (wall === null || refMs === null) return null;
    const hour = `${wall.slice(0, 9)}00${wall.slice(11)}`;
    let start = hours.get(hour);
    if (start === undefined) {
      const iso = parseLocal(hour, zone, refMs);
      hours.set(hour, (start = iso === null ? null : Date.parse(iso)));
    }
    if (start === null) return null;
    const t = start + Number(wall.slice(9, 11)) * 60_000;
    return Math.abs(t - refMs) <= WINDOW_MS ? new Date(t).toISOString() : null;
  };
}

/** One map time (see timeReader). */
export function mapTime(text: string | null | undefined, zone: string, refMs: number | null): string | null {
  return timeReader(zone, refMs)(text);
}
