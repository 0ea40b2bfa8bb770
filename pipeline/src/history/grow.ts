// History grows by itself (issue 25 part 3): after a cycle publishes a finished archive day, the episodes its quarters
// begin or extend are derived (history/derive.ts growEpisodes), history is marked changed — the county profiles and
// histories follow at the next publish — and the report tree is republished from the longer series. A report tree that
// failed to publish is tried again after the next cycle; the poll loop never stops for it.
import type { Db } from '../state/db.ts';
import type { TreeWriter } from '../publish/tree-writer.ts';
import { growEpisodes } from './derive.ts';
import { markHistoryChanged } from './version.ts';

export interface GrowTarget {
  outDir: string;
  now: Date;
  /** the report tree's writer; null: a test's memory tree publishes no report tree */
  writer?: TreeWriter | null;
}

export class HistoryGrowth {
  /** history grew and its report tree is not published yet */
  private unpublished = false;
  /** the last report-tree publish's failure, if it failed */
  lastError: string | null = null;

  /** True when this cycle's finished day grew history. A failure is kept in `lastError`, never thrown. */
  async afterCycle(db: Db, model: Map<string, number>, to: GrowTarget): Promise<boolean> {
    let grew = false;
    try {
      grew = await growEpisodes(db, model);
      if (grew) {
        await markHistoryChanged(db);
        this.unpublished = to.writer !== null;
      }
      if (this.unpublished) {
        // loaded here, not by every poll process: the end of a day is the only time the poll loop publishes reports
        const { publishHistoryIfChanged } = await import('../publish/reports.ts');
        await publishHistoryIfChanged(db, to.outDir, { now: to.now, writer: to.writer ?? undefined });
        await db.releaseMemory();
        this.unpublished = false;
      }
      this.lastError = null;
    } catch (err) {
      this.lastError = (err as Error).message;
    }
    return grew;
  }
}
