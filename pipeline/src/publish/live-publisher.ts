// A cycle's publish: the live tree from the cycle's rollups (or, for `outage build`, rollups computed from stored
// state) with what it reads besides them — the timeline frames, the counties' 24-hour series, imported history,
// source health and the verify report — or, for a quiet cycle, /live/sources alone. What it keeps between cycles:
// the county details to rebuild, the archive's publisher and the slow inputs (cycle-inputs.ts).
import { TIMELINE_MAX_HOURS } from '../contract/catalogue.ts';
import type { CoverageData } from '../coverage/document.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Db } from '../state/db.ts';
import { computeLive, type LiveState } from '../state/rollup.ts';
import type { SourceStatus } from '../state/status.ts';
import { ArchivePublisher } from './archive.ts';
import { CycleInputs } from './cycle-inputs.ts';
import { DetailCache } from './detail-cache.ts';
import type { FrameRow } from './documents.ts';
import { publishLive, publishSourcesOnly } from './publish.ts';
import { FsTreeWriter, type PublishStats, type TreeWriter } from './tree-writer.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

export interface LivePublisherOptions {
  db: Db;
  sources: SourceDef[];
  stateDir: string;
  outDir: string;
  simulated: boolean;
  /** absolute URL the service is published at (feeds need absolute links) */
  baseUrl?: string;
  /** /api/v1/coverage, published with every cycle (coverageFor in coverage/document.ts) */
  coverage?: CoverageData;
  /** a writer other than the file system one (tests) */
  writer?: (now: Date) => TreeWriter;
  /** the sources whose poll is carried past a cycle's budget: id → when it started (sources/carried.ts) */
  late?: () => ReadonlyMap<string, string>;
}

/** The cycle's rollups, when it computed them. */
export interface Rollups {
  live: LiveState;
  model: Map<string, number>;
}

export interface LivePublished {
  stats: PublishStats;
  countiesOut: number;
  customersOut: number;
}

export class LivePublisher {
  /** which county detail documents the next publish must rebuild */
  readonly details = new DetailCache();
  /** the archive's publisher: its finished days in the tree's archive part (with a test's writer, the live tree) */
  private readonly archive: ArchivePublisher;
  private readonly inputs: CycleInputs;

  constructor(private readonly o: LivePublisherOptions) {
    this.archive = new ArchivePublisher(o.writer ? null : (now) => new FsTreeWriter(o.outDir, now, 'archive'));
    this.inputs = new CycleInputs(o);
  }

  /** Publishes the cycle's rollups (or, for `build`, rollups computed from stored state). */
  async publish(
    statuses: Map<string, SourceStatus>,
    now: Date,
    computed: Rollups | null,
    { renderCharts = false, reportsBuilding }: { renderCharts?: boolean; reportsBuilding: boolean },
  ): Promise<LivePublished> {
    const { db, sources } = this.o;
    const model = computed?.model ?? (await countyModel(db, loadCountyModel()));
    const live = computed?.live ?? (await computeLive(db, sources, statuses, model, now));
    const frames = await timelineFrames(db, now);
    const writer = this.writer(now);
    const totalCustomers = total(model);
    const { histories, mcc, loadedYears } = await this.inputs.history();
    const stats = await publishLive(writer, {
      live,
      reportsBuilding,
      sources,
      statuses,
      frames,
      simulated: this.o.simulated,
      now,
      totalCustomers,
      db,
      baseUrl: this.o.baseUrl ?? DEFAULT_BASE_URL,
      histories,
      mcc,
      loadedYears,
      countySeries: await countySeries(db, now),
      renderCharts,
      health: await this.inputs.health(statuses, now),
      late: this.o.late?.(),
      coverage: this.o.coverage,
      verification: this.inputs.verification(),
      details: this.details,
      archive: this.archive,
    });
    return { stats, countiesOut: live.national.counties_out, customersOut: live.national.customers_out };
  }

  /** A quiet cycle's publish: only /live/sources — its fetch times and health — and a new verify report. */
  async publishSources(statuses: Map<string, SourceStatus>, now: Date): Promise<PublishStats> {
    const totalCustomers = total(await countyModel(this.o.db, loadCountyModel()));
    return publishSourcesOnly(this.writer(now), {
      sources: this.o.sources,
      statuses,
      simulated: this.o.simulated,
      now,
      totalCustomers,
      health: await this.inputs.health(statuses, now),
      late: this.o.late?.(),
      verification: this.inputs.verification(true),
    });
  }

  private writer(now: Date): TreeWriter {
    return this.o.writer?.(now) ?? new FsTreeWriter(this.o.outDir, now);
  }
}

function total(model: Map<string, number>): number {
  let n = 0;
  for (const v of model.values()) n += v;
  return n;
}

/** Every stored state frame within the function layer's maximum timeline window, oldest first. */
function timelineFrames(db: Db, now: Date): Promise<FrameRow[]> {
  const since = new Date(now.getTime() - TIMELINE_MAX_HOURS * 3_600_000).toISOString();
  return db.all<FrameRow>(
    'SELECT frame_at AS "at", state, customers_out, pct_out, band FROM state_frames WHERE frame_at > ? AND frame_at <= ? ORDER BY frame_at, state',
    [since, now.toISOString()],
  );
}

/** The last 24 h of 15-minute readings of each county out, behind the live charts. */
async function countySeries(db: Db, now: Date): Promise<Record<string, Array<[string, number]>>> {
  const series: Record<string, Array<[string, number]>> = {};
  for (const r of await db.all<{ fips: string; at: string; n: number }>(
    'SELECT fips, frame_at AS "at", customers_out AS n FROM county_frames WHERE frame_at > ? ORDER BY fips, frame_at',
    [new Date(now.getTime() - 24 * 3_600_000).toISOString()],
  )) {
    (series[r.fips] ??= []).push([r.at, r.n]);
  }
  return series;
}
