// NiSource prints times as local wall clock in ISO form (`2026-06-30T12:22:00`, the ETR with a `Z` that is not UTC:
// see README, Times); year 0001 is "unknown".
import { remembered } from '../checks.ts';
import { parseLocal } from '../local-time.ts';

const SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?Z?$/;

/** `YYYY-MM-DDTHH:MM[:SS][.fff][Z]` read as wall clock in `zone`; null for other text and years before 1990. */
function readWall(text: string, zone: string): string | null {
  const m = SHAPE.exec(text.trim());
  if (!m || Number(m[1]) < 1990) return null;
  const minute = parseLocal(`${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}`, zone, Date.UTC(Number(m[1]), 0, 1));
  return minute === null ? null : new Date(Date.parse(minute) + Number(m[6] ?? 0) * 1000).toISOString();
}

/** Readers by zone, each remembering its texts across polls: the same outages come back poll after poll. */
const readers = new Map<string, (text: string) => string | null>();

export function wallTime(text: string | null | undefined, zone: string): string | null {
  if (!text) return null;
  let read = readers.get(zone);
  if (!read) readers.set(zone, (read = remembered((t: string) => readWall(t, zone))));
  return read(text);
}
