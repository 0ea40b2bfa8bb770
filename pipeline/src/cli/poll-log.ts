// What a cycle's failed polls print: each source with its reason when there are a few, else one line that counts
// them by reason with an example of each (a machine without network fails every feed: one line, not 270).
import type { CycleSummary } from '../cycle/summary.ts';
import { log } from './common.ts';

/** Up to this many failed polls are listed one per line. */
export const FAILURES_LISTED = 5;

type Failure = CycleSummary['failures'][number];

/** One line for many failures: how many, by reason (most first), each with the first source's message. */
export function failureSummary(failures: Failure[], total: number): string {
  const byReason = new Map<string, Failure[]>();
  for (const f of failures) byReason.set(f.reason, [...(byReason.get(f.reason) ?? []), f]);
  const parts = [...byReason]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, fs]) => `${reason} ${fs.length} (e.g. ${fs[0].source}: ${fs[0].message})`);
  return `  ${failures.length} of ${total} polls failed: ${parts.join('; ')}. Every source's reason: /api/v1/live/sources`;
}

/** The cycle's failed polls with their reasons, and what was cleaned from the text of the good ones. */
export function logPolls(s: CycleSummary): void {
  if (s.failures.length > FAILURES_LISTED) log(failureSummary(s.failures, s.polled));
  else for (const f of s.failures) log(`  ${f.source}: ${f.reason}: ${f.message}`);
  for (const n of s.notes) log(`  ${n.source}: ${n.message}`);
  if (s.late.length)
    log(`  late (still fetching past the cycle's budget; they land in a later cycle): ${s.late.join(', ')}`);
}
