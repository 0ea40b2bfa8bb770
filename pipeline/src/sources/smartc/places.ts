// Shared by both SmartC flavours: points, county names within the row's states, and zone-less local times.
import { matchCounty } from '../../geo/match.ts';
import { parseLocal } from '../local-time.ts';

/** A coordinate sent as a number or text; null for blanks, junk, out-of-range values and the 0 placeholder. */
export function coordinate(v: unknown, limit: number): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && Math.abs(n) <= limit && n !== 0 ? n : null;
}

/** FIPS of a county name in the first of the row's states that has it, or undefined. */
export function matchIn(states: string[], name: string): string | undefined {
  for (const s of states) {
    const fips = matchCounty(s, name);
    if (fips) return fips;
  }
  return undefined;
}

/** ISO UTC for an ISO time that carries its own offset ("…Z", "…-05:00"); null for anything else. */
export function offsetIso(text: string | null | undefined): string | null {
  const s = text?.trim();
  if (!s || !/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/**
 * ISO UTC for a time the API prints with a year but no zone, read in the utility's zone:
 * "2026-06-29T16:00:00" (WidgetAPI ETR) or "Wed, 10/07/2026, 11:00 AM" (ServiceAPI ETR attribute).
 * A time with its own offset is taken as is; .NET's placeholders (year 0001, 9999) are no time.
 */
export function localIso(text: string | null | undefined, zone: string): string | null {
  if (!text) return null;
  let byText = localAnswers.get(zone);
  if (!byText) localAnswers.set(zone, (byText = new Map()));
  let iso = byText.get(text);
  if (iso === undefined) {
    if (byText.size >= 20_000) byText.clear();
    byText.set(text, (iso = readLocal(text, zone)));
  }
  return iso;
}

/**
 * localIso's answers by zone and text, kept across polls: the same ETR texts come back poll after poll, and reading
 * one (five regexes, a zone conversion) costs more than its share of JSON.parse. Every shape read carries its year,
 * so an answer does not depend on the date it is read at.
 */
const localAnswers = new Map<string, Map<string, string | null>>();

function readLocal(text: string, zone: string): string | null {
  const s = text.trim();
  if (!s) return null;
  const zoned = offsetIso(s);
  if (zoned) return zoned;
  // The weekday is redundant once the year is printed; drop it so the text has a shape parseLocal knows.
  const wall = s
    .replace(/^[a-z]{3}[a-z]*,\s*/i, '')
    .replace(/^(\d{1,2}\/\d{1,2}\/\d{4}),/, '$1')
    .replace(/(:\d{2})\.\d+$/, '$1');
  const year = Number(/\d{4}/.exec(wall)?.[0]);
  if (!(year > 2000 && year < 9000)) return null;
  // Every shape it reads here carries its year, so the reference instant is unused.
  return parseLocal(wall, zone, 0);
}
