// Who history's figures are credited to (issue 38 part 2). A row's `source` is its origin (eaglei, archive or both:
// derive.ts), except in a deployment whose history is the built-in simulator's: there every report row, county year,
// month and worst event says `simulated`, and every table and chart carries the SIMULATED credit, never EAGLE-I's.
// Simulated figures are credited to no one: a journalist must not be able to cite them as federal data.
import type { Db } from '../state/db.ts';
import type { HistoryOrigin } from './derive.ts';

export const SIMULATED_SOURCE = 'simulated';
/** Where a published row's figures come from. */
export type HistorySource = HistoryOrigin | typeof SIMULATED_SOURCE;

/** The credit of simulated history, in place of EAGLE-I's, OE-417's and EIA-861's. */
export const SIMULATED_CREDIT =
  "SIMULATED history from this deployment's built-in simulator (in the EAGLE-I, OE-417 and EIA-861 file formats): not real outages, credited to no one";

/**
 * Whether the history is simulated: the simulator's files were imported (named SIMULATED_…), or the live archive's
 * days that history holds (state/schema.sql history_archive_quarters) were polled from the simulator.
 */
export async function historySimulated(db: Db): Promise<boolean> {
  const [row] = await db.all<{ s: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM import_log WHERE file LIKE 'SIMULATED\\_%' ESCAPE '\\')
         OR EXISTS (SELECT 1 FROM history_archive_quarters h JOIN archive_quarters q USING (quarter_at) WHERE q.simulated)
         AS s`,
  );
  return row.s;
}

/** The rows as published (changed in place): each `source` is `simulated` when the history is, else left as it is. */
export function credited(rows: ReadonlyArray<{ source: string | null }>, simulated: boolean): void {
  if (simulated) for (const r of rows) if (r.source !== null) r.source = SIMULATED_SOURCE;
}
