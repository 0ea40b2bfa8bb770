// Publishes the live tree: every catalogue entry × key × format, through one TreeWriter.
import type { ArchivePublisher } from './archive.ts';
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { dataNotice } from '../contract/notice.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { LiveState } from '../state/rollup.ts';
import type { SourceStatus } from '../state/status.ts';
import {
  COUNTY_CSV_COLUMNS,
  countyCsvRow,
  countyDoc,
  mapDoc,
  sourcesDoc,
  summaryDoc,
  timelineDoc,
  topDoc,
  type FrameRow,
} from './documents.ts';
import { putCsv, putEntries, putJson, putRawJson, putText } from './formats.ts';
import type { PublishStats, TreeWriter } from './tree-writer.ts';
import { buildOpenApi } from './openapi.ts';
import { buildLlmsTxt } from './llms.ts';
import { publishEvents } from './events.ts';
import { publishDetails } from './county-detail.ts';
import type { DetailCache } from './detail-cache.ts';
import { publishCountyProfiles, type History } from './county-profile.ts';
import { renderChart } from './charts.ts';
import { decadeSpec, monthlySpec } from './chart-specs.ts';
import type { Db } from '../state/db.ts';
import { publishCoverage } from '../coverage/publish.ts';
import type { CoverageData } from '../coverage/document.ts';
import type { SourceHealth } from '../state/health.ts';
import { publishVerification, VERIFICATION_FILE, type VerificationDoc } from './verification.ts';
import { publishPlaces } from './places.ts';

/** Internal (never mirrored or routed): every stored frame, for the function layer's other `hours` values. */
export const FRAMES_FILE = 'api/v1/live/_timeline-frames.json';

export interface PublishInput {
  live: LiveState;
  sources: SourceDef[];
  statuses: Map<string, SourceStatus>;
  /** every stored frame within the function layer's maximum window, oldest first */
  frames: FrameRow[];
  simulated: boolean;
  now: Date;
  totalCustomers: number;
  db: Db;
  baseUrl: string;
  /** imported history per county, and the counties whose denominator is EAGLE-I MCC */
  histories: Map<string, History>;
  mcc: ReadonlySet<string>;
  /** the years whose history is loaded (a loaded year without episodes is a zero, not a gap) */
  loadedYears: number[];
  /** the report tables are being built in this process now (the summary says so; the reports page waits for them) */
  reportsBuilding?: boolean;
  /** render missing or changed decade/monthly charts (`outage build --charts`); cycles only carry charts over */
  renderCharts?: boolean;
  /** last 24 h of 15-minute readings of the counties out, behind the live charts */
  countySeries: Record<string, Array<[string, number]>>;
  /** each source's success rate, fetch time and stale minutes over 24 h and 7 days */
  health: Map<string, SourceHealth>;
  /** the sources whose poll is carried past a cycle's budget: id → when it started */
  late?: ReadonlyMap<string, string>;
  /** which county detail documents must be rebuilt (held by the pipeline across cycles) */
  details: DetailCache;
  /** the archive's publisher (held by the pipeline across cycles: its finished days are a tree part of their own) */
  archive: ArchivePublisher;
  /** /api/v1/coverage of the registry (coverage/document.ts coverageFor), computed once when the registry is loaded */
  coverage?: CoverageData;
  /** /api/v1/sources/verification: the last `sources verify` report kept in the state directory (verification.ts) */
  verification?: VerificationDoc;
}

/** Internal (never mirrored or routed): the counties' last-24-hour series the function layer draws live charts from. */
export const SERIES_FILE = 'api/v1/live/_county-series.json';

/**
 * Decade and monthly charts. A poll cycle only carries unchanged charts over (rendering thousands of PNGs does not
 * belong in a cycle); `outage build --charts` renders the missing and changed ones, and the function layer draws any
 * chart without a file on request (cached by its data).
 */
async function publishCountyCharts(w: TreeWriter, input: PublishInput): Promise<void> {
  const [decadeE, monthlyE] = [endpoint('county.chart.decade'), endpoint('county.chart.monthly')];
  for (const c of input.live.counties) {
    const h = input.histories.get(c.fips);
    if (!h) continue;
    for (const [e, spec] of [
      [decadeE, decadeSpec(c, h.years, input.simulated, input.loadedYears)],
      [monthlyE, monthlySpec(c, h.months, input.simulated, input.loadedYears, input.now)],
    ] as const) {
      const rel = fileFor(e, { fips: c.fips }, 'png');
      const basis = Buffer.from(JSON.stringify(spec));
      if (w.same(rel, basis) && w.keep(rel)) continue; // re-rendered only when its inputs changed
      if (!input.renderCharts) continue;
      const png = await renderChart(spec, input.now.toISOString());
      w.put(rel, () => png, basis);
    }
  }
}

type SourcesInput = Pick<
  PublishInput,
  'sources' | 'statuses' | 'simulated' | 'now' | 'totalCustomers' | 'health' | 'verification' | 'late'
>;
const SOURCES_FILE = fileFor(endpoint('live.sources'), {}, 'json');

function putSources(w: TreeWriter, input: SourcesInput): void {
  const { sources, statuses, totalCustomers, now, health, late } = input;
  putJson(w, SOURCES_FILE, {
    simulated: input.simulated,
    ...sourcesDoc(sources, statuses, totalCustomers, now, health, late),
  });
  // Beside /live/sources, which the sources page shows it with: a verify run between cycles appears on the next one.
  if (input.verification) publishVerification(w, input.verification);
}

/**
 * A quiet cycle (every polled source unchanged, nothing else moved): the previous generation carried over whole, with
 * only /live/sources — fetch times and health — written anew.
 */
export function publishSourcesOnly(w: TreeWriter, input: SourcesInput): Promise<PublishStats> {
  w.keepAllExcept(new Set(input.verification ? [SOURCES_FILE, VERIFICATION_FILE] : [SOURCES_FILE]));
  putSources(w, input);
  return w.commit({ simulated: input.simulated, notice: dataNotice(input.simulated) });
}

export async function publishLive(w: TreeWriter, input: PublishInput): Promise<PublishStats> {
  const { live, sources, statuses, simulated, now } = input;
  putJson(w, fileFor(endpoint('live.summary'), {}, 'json'), summaryDoc(live, simulated, input.reportsBuilding));
  putEntries(w, fileFor(endpoint('live.map'), {}, 'json'), mapDoc(live));
  putJson(w, fileFor(endpoint('live.top'), {}, 'json'), topDoc(live, sources, statuses));
  const dayAgo = new Date(now.getTime() - 24 * 3_600_000).toISOString();
  putJson(w, fileFor(endpoint('live.timeline'), {}, 'json'), timelineDoc(input.frames.filter((f) => f.at > dayAgo)));
  putJson(w, FRAMES_FILE, { frames: input.frames });
  putSources(w, input);
  const county = endpoint('live.county');
  for (const c of live.counties) {
    const json = fileFor(county, { fips: c.fips }, 'json');
    const csv = fileFor(county, { fips: c.fips }, 'csv');
    const doc = countyDoc(c, simulated);
    // The CSV holds the same fields: when the JSON is unchanged, both are carried over without rendering.
    if (w.same(json, Buffer.from(JSON.stringify(doc))) && w.keep(json) && w.keep(csv)) continue;
    putJson(w, json, doc);
    putCsv(w, csv, COUNTY_CSV_COLUMNS, (g) => [countyCsvRow(c, g)]);
  }
  publishCountyProfiles(w, live.counties, input.histories, input.mcc, input.loadedYears, simulated);
  await publishCountyCharts(w, input);
  // The quarter hours the pipeline recorded (a state frame each): an hour without one is drawn as a gap, not a zero.
  const recorded = [...new Set(input.frames.filter((f) => f.at > dayAgo).map((f) => f.at))];
  putJson(w, SERIES_FILE, { series: input.countySeries, frames: recorded });
  await publishDetails(w, {
    db: input.db,
    counties: live.counties,
    sources,
    statuses,
    baseUrl: input.baseUrl,
    notice: dataNotice(simulated),
    cache: input.details,
  });
  await publishEvents(w, input.db, {
    utilities: [...new Set(sources.map((s) => s.utility))],
    baseUrl: input.baseUrl,
    simulated,
    now,
  });
  if (input.coverage) publishCoverage(w, input.coverage);
  publishPlaces(w);
  await input.archive.publish(w, input.db, now, simulated);
  putRawJson(w, fileFor(endpoint('openapi'), {}, 'json'), buildOpenApi(simulated));
  putText(w, fileFor(endpoint('llms'), {}, 'txt'), buildLlmsTxt(simulated));
  const stats = await w.commit({ simulated, notice: dataNotice(simulated) });
  input.details.committed(new Set(live.counties.filter((c) => c.customers_out > 0).map((c) => c.fips)));
  return stats;
}
