// Every text field of a snapshot cleaned by its rule (clean-text.ts), for every connector, in the quarantine step;
// what changed is summed for the poll log. Which fields may keep tab and line breaks: the notice and causes (an
// operator's comment can run over lines); names, ids, paths, city and crew status are one line.
import {
  cleanId,
  cleanOrNull,
  cleanText,
  noCleaning,
  PATH_DEPTH_CAP,
  TEXT_CAPS,
  type TextCleaning,
  type TextRule,
} from './clean-text.ts';
import type { AreaCount, Incident, Snapshot } from './snapshot.ts';

const line = (cap: number): TextRule => ({ cap, multiline: false });
const NAME = line(TEXT_CAPS.name);
const SHORT = line(TEXT_CAPS.short);
const UNMATCHED = line(TEXT_CAPS.unmatched);
const CAUSE: TextRule = { cap: TEXT_CAPS.cause, multiline: true };
const NOTICE: TextRule = { cap: TEXT_CAPS.notice, multiline: true };

function cleanArea(a: AreaCount, t: TextCleaning): void {
  a.name = cleanText(a.name, NAME, t);
  if (a.path.length > PATH_DEPTH_CAP) {
    t.capped += 1;
    a.path = a.path.slice(0, PATH_DEPTH_CAP);
  }
  for (let i = 0; i < a.path.length; i++) a.path[i] = cleanText(a.path[i], NAME, t);
  a.out_display = cleanText(a.out_display, SHORT, t);
  a.etr = cleanOrNull(a.etr, SHORT, t);
}

function cleanIncident(i: Incident, t: TextCleaning): void {
  i.id = cleanId(i.id, t);
  i.crew_status = cleanOrNull(i.crew_status, NAME, t);
  i.cause = cleanOrNull(i.cause, CAUSE, t);
  i.city = cleanOrNull(i.city, NAME, t);
  i.etr = cleanOrNull(i.etr, SHORT, t);
  i.started_at = cleanOrNull(i.started_at, SHORT, t);
}

/** Cleans the snapshot's text in place; returns what changed, or null when nothing did. */
export function cleanSnapshotText(snap: Snapshot): TextCleaning | null {
  const t = noCleaning();
  snap.utility = cleanText(snap.utility, NAME, t);
  snap.notice = cleanOrNull(snap.notice, NOTICE, t);
  for (const a of snap.areas) cleanArea(a, t);
  for (const i of snap.incidents) cleanIncident(i, t);
  for (let k = 0; k < snap.unmatched.length; k++) snap.unmatched[k] = cleanText(snap.unmatched[k], UNMATCHED, t);
  const changed = t.controls + t.bidi + t.noncharacters + t.surrogates + t.capped;
  return changed ? t : null;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The poll log's line: `text cleaned: 3 control characters removed, 1 field cut to its cap (longest 102,400 characters)`. */
export function cleaningNote(t: TextCleaning): string {
  const parts = [
    t.controls && `${plural(t.controls, 'control character')} removed`,
    t.bidi && `${plural(t.bidi, 'bidirectional override')} removed`,
    t.noncharacters && `${plural(t.noncharacters, 'non-character')} removed`,
    t.surrogates && `${plural(t.surrogates, 'lone surrogate')} replaced`,
    t.capped &&
      `${plural(t.capped, 'field')} cut to ${t.capped === 1 ? 'its cap' : 'their caps'} (longest ${plural(t.longest, 'character')})`,
  ].filter(Boolean);
  return `text cleaned: ${parts.join(', ')}`;
}
