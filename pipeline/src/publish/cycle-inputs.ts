// What a publish reads besides the cycle's rollups that moves slowly, kept between cycles: source health (recomputed
// at most every 15 minutes), imported history (re-read when an import changed it) and the `sources verify` report
// (re-read at every publish, serialised again only when it changed).
import { countyHistories } from '../history/derive.ts';
import { historyMarks } from '../history/version.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Db } from '../state/db.ts';
import { prunePolls, sourceHealth, type SourceHealth } from '../state/health.ts';
import type { SourceStatus } from '../state/status.ts';
import type { History } from './county-profile.ts';
import { readVerifyReport, verificationDoc, verifyReportMtime } from './verification.ts';

/** imported history as the publisher reads it, recomputed when the history version changes */
interface HistoryCache {
  version: string;
  histories: Map<string, History>;
  mcc: Set<string>;
  loadedYears: number[];
}

export interface CycleInputsOptions {
  db: Db;
  sources: SourceDef[];
  stateDir: string;
  simulated: boolean;
}

export class CycleInputs {
  /** mtime of the `sources verify` report the tree was last given (NaN before the first publish) */
  private verifiedMtime = Number.NaN;
  private healthCache: { at: number; health: Map<string, SourceHealth> } | null = null;
  private historyCache: HistoryCache | null = null;

  constructor(private readonly o: CycleInputsOptions) {}

  /**
   * The last `sources verify` report in the state directory (verify runs apart, so it is looked for at every publish);
   * `onlyIfChanged`: undefined when it is the one already published (a quiet cycle then serialises nothing more).
   */
  verification(onlyIfChanged = false) {
    const mtime = verifyReportMtime(this.o.stateDir);
    if (onlyIfChanged && mtime === this.verifiedMtime) return undefined;
    this.verifiedMtime = mtime;
    return verificationDoc(readVerifyReport(this.o.stateDir), this.o.simulated);
  }

  /** Source health over 24 h and 7 days, recomputed at most every 15 minutes (its windows move slowly). */
  async health(statuses: Map<string, SourceStatus>, now: Date): Promise<Map<string, SourceHealth>> {
    if (this.healthCache && now.getTime() - this.healthCache.at < 15 * 60_000 && now.getTime() >= this.healthCache.at)
      return this.healthCache.health;
    await prunePolls(this.o.db, now);
    this.healthCache = { at: now.getTime(), health: await sourceHealth(this.o.db, this.o.sources, statuses, now) };
    return this.healthCache.health;
  }

  /** Imported history, re-read only when an import has changed it (`history_version` in meta). */
  async history(): Promise<HistoryCache> {
    const { db } = this.o;
    const version = (await historyMarks(db)).version ?? '0';
    if (this.historyCache?.version !== version) {
      const mcc = new Set((await db.all<{ fips: string }>('SELECT fips FROM county_customers_mcc')).map((r) => r.fips));
      const loadedYears = (
        await db.all<{ y: number }>(
          `SELECT year AS y FROM eaglei_span
           UNION SELECT DISTINCT year(run_start_time)::INT FROM history_archive_quarters ORDER BY y`,
        )
      ).map((r) => r.y);
      this.historyCache = { version, histories: await countyHistories(db), mcc, loadedYears };
    }
    return this.historyCache;
  }
}
