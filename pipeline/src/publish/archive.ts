// The archive as published files (issue 25 parts 2, 4 and 6): each finished UTC day once, as Parquet (zstd) and CSV
// in EAGLE-I's layout, immutable (long cache, never rewritten), listed in /api/v1/archive with rows, bytes and sha256;
// and for the function layer, internal documents: one per day (the past map; the day in progress rewritten each
// cycle, a finished one once) and, per month, its quarters and each county's values (a one-year county series reads
// 24 small documents). Finished days go to the tree's `archive` part (tree-writer.ts), committed once a day, so a
// cycle neither rewrites nor re-lists them; the index and the day in progress go with the live tree. With each finished
// day, its finished incidents (state/incident-archive.ts), after which they leave the live database.
import { endpoint } from '../contract/catalogue.ts';
import { fileFor, urlFor } from '../contract/urls.ts';
import type { Db } from '../state/db.ts';
import { ARCHIVE_COLUMNS, archivedDays, nextDay } from '../state/archive-read.ts';
import { dayDoc, dayFiles, monthDocs, quarterDoc, sha256 } from '../state/archive-day.ts';
import { quarterOf } from '../state/archive.ts';
import { forgetArchivedIncidents, incidentDayFiles } from '../state/incident-archive.ts';
import { dataNotice } from '../contract/notice.ts';
import type { TreeWriter } from './tree-writer.ts';
import { objectPath, readManifest } from './tree-parts.ts';

/** The function layer's documents of the archive (not public URLs). */
export const archiveDayDoc = (day: string): string => `api/v1/archive/_days/${day}.json`;
/** One quarter of the day in progress (`quarter` an ISO time on the mark): `_days/{day}/{HHMM}.json`. */
export const archiveQuarterDoc = (quarter: string): string =>
  `api/v1/archive/_days/${quarter.slice(0, 10)}/${quarter.slice(11, 13)}${quarter.slice(14, 16)}.json`;
export const archiveMonthDoc = (month: string): string => `api/v1/archive/_months/${month}.json`;
export const archiveCountyMonthDoc = (fips: string, month: string): string =>
  `api/v1/archive/_counties/${fips}/${month}.json`;

interface Written {
  day: string;
  rows: number;
  quarters: number;
  csv_bytes: number;
  csv_sha256: string;
  parquet_bytes: number;
  parquet_sha256: string;
}

const envelope = (data: unknown, at: string) =>
  Buffer.from(JSON.stringify({ data: { generated_at: at, ...(data as object) } }));
/** A document put with its content (without the time) as the change basis: unchanged content keeps its time. */
const putDoc = (w: TreeWriter, rel: string, data: unknown) =>
  w.put(rel, (at) => envelope(data, at), Buffer.from(JSON.stringify(data)));

const dayRels = (day: string) => {
  const e = endpoint('archive.day');
  return [fileFor(e, { date: day }, 'csv'), fileFor(e, { date: day }, 'parquet'), archiveDayDoc(day)];
};

/**
 * Publishes the archive each cycle. `openPart` opens the tree's archive part (null: a test's memory tree, where the
 * archive's files go with the live tree and are kept by every cycle, as this publisher remembers them).
 */
export class ArchivePublisher {
  /** the archive part was checked against archive_files since this process started (a lost file is written again) */
  private verified = false;
  /** without a part of its own: every archive file put so far, kept by each cycle's live tree */
  private readonly carried = new Set<string>();
  /** the day in progress, and its past quarters whose documents this process has put (they no longer change) */
  private readonly today = { day: '', done: new Set<string>() };

  constructor(private readonly openPart: ((now: Date) => TreeWriter) | null) {}

  async publish(live: TreeWriter, db: Db, now: Date, simulated: boolean): Promise<void> {
    const today = now.toISOString().slice(0, 10);
    const written = new Map((await db.all<Written>('SELECT * FROM archive_files')).map((r) => [r.day, r]));
    const days = await archivedDays(db, [...written.keys()].sort().at(-1)); // the days not written yet, and today
    const finished = days.filter((x) => x.day < today);
    if (finished.length || (!this.verified && written.size) || !this.openPart) {
      const part = this.openPart?.(now) ?? null;
      const w = part ?? live;
      if (part) part.keepAllExcept(new Set());
      for (const rel of this.carried) w.keep(rel);
      // Written days are carried over; one the tree lost (a new output directory) is written again from the archive,
      // oldest first, so each month's series documents end as the last day leaves them.
      let lost = 0;
      for (const [day, row] of [...written].sort(([a], [b]) => a.localeCompare(b)))
        if (!dayRels(day).every((r) => w.keep(r))) {
          written.set(day, await this.writeDay(w, db, { day, quarters: row.quarters }, now));
          lost += 1;
        }
      for (const d of finished) {
        written.set(d.day, await this.writeDay(w, db, d, now));
        await this.writeIncidents(w, db, d.day);
      }
      if (part && (finished.length || lost)) await part.commit({ simulated, notice: dataNotice(simulated) });
      // Published: the finished incidents of those days leave the live database (state/incident-archive.ts).
      await forgetArchivedIncidents(db);
      this.verified = true;
      // A finished day's rows are read again only if its files are lost: give back the blocks DuckDB cached for them.
      if (finished.length) await db.releaseMemory();
    }
    const current = days.find((x) => x.day === today);
    if (current) await this.publishToday(live, db, now);
    const listed = [...written.values()].sort((a, b) => a.day.localeCompare(b.day));
    const index = indexDoc(listed, current, simulated);
    const [span] = await db.all<{ first: string | null; last: string | null }>(
      'SELECT min(quarter_at) AS "first", max(quarter_at) AS "last" FROM archive_quarters',
    );
    [index.first_quarter, index.last_quarter] = [span?.first ?? null, span?.last ?? null];
    putDoc(live, fileFor(endpoint('archive'), {}, 'json'), index);
    const pkg = Buffer.from(JSON.stringify(dataPackage(listed, simulated)));
    live.put(fileFor(endpoint('archive.datapackage'), {}, 'json'), () => pkg, pkg);
  }

  /**
   * The day in progress as one document per quarter: a cycle rebuilds only the quarter it writes (state/archive.ts
   * quarterOf) and carries the earlier ones over; after a restart each is rebuilt once.
   */
  private async publishToday(live: TreeWriter, db: Db, now: Date): Promise<void> {
    const day = now.toISOString().slice(0, 10);
    if (this.today.day !== day) [this.today.day, this.today.done] = [day, new Set()];
    const current = quarterOf(now);
    const reached = await db.all<{ q: string }>(
      'SELECT quarter_at AS q FROM archive_quarters WHERE quarter_at >= ? AND quarter_at < ? ORDER BY 1',
      [day, nextDay(day)],
    );
    for (const { q } of reached) {
      const rel = archiveQuarterDoc(q);
      if (q !== current && this.today.done.has(q) && live.keep(rel)) continue;
      putDoc(live, rel, await quarterDoc(db, q));
      if (q < current) this.today.done.add(q);
    }
  }

  /** A finished day's three files and its month's series documents, put once; archive_files says what was published. */
  private async writeDay(w: TreeWriter, db: Db, d: { day: string; quarters: number }, now: Date): Promise<Written> {
    const [csvRel, parquetRel, docRel] = dayRels(d.day);
    const files = await dayFiles(db, d.day);
    this.put(w, csvRel, () => files.csv, files.csv);
    this.put(w, parquetRel, () => files.parquet, files.parquet);
    this.putDoc(w, docRel, await dayDoc(db, d.day));
    const month = await monthDocs(db, d.day);
    this.putDoc(w, archiveMonthDoc(month.month.month), month.month);
    for (const c of month.counties) this.putDoc(w, archiveCountyMonthDoc(c.fips, c.month), c);
    const row: Written = {
      day: d.day,
      rows: files.rows,
      quarters: d.quarters,
      csv_bytes: files.csv.length,
      csv_sha256: sha256(files.csv),
      parquet_bytes: files.parquet.length,
      parquet_sha256: sha256(files.parquet),
    };
    await db.run('INSERT OR REPLACE INTO archive_files VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      ...[row.day, row.rows, row.quarters, row.csv_bytes, row.csv_sha256, row.parquet_bytes, row.parquet_sha256],
      now.toISOString(),
    ]);
    return row;
  }

  /** A finished day's incidents that have left their feeds, put once (their rows are forgotten after the commit). */
  private async writeIncidents(w: TreeWriter, db: Db, day: string): Promise<void> {
    const e = endpoint('archive.incidents');
    const files = await incidentDayFiles(db, day);
    this.put(w, fileFor(e, { date: day }, 'csv'), () => files.csv, files.csv);
    this.put(w, fileFor(e, { date: day }, 'parquet'), () => files.parquet, files.parquet);
  }

  private put(w: TreeWriter, rel: string, render: () => Buffer, basis: Buffer): void {
    w.put(rel, render, basis);
    if (!this.openPart) this.carried.add(rel);
  }

  private putDoc(w: TreeWriter, rel: string, data: unknown): void {
    putDoc(w, rel, data);
    if (!this.openPart) this.carried.add(rel);
  }
}

/**
 * The published incident day files' Parquet, as paths on disk (through the archive part's manifest) for DuckDB to read:
 * the ETR record's archived incidents. Empty before any day is archived.
 */
export function archivedIncidentFiles(outDir: string): string[] {
  const files = readManifest(outDir, 'archive')?.files ?? {};
  const e = endpoint('archive.incidents');
  const day = (rel: string) => /(\d{4}-\d{2}-\d{2})\.parquet$/.exec(rel)?.[1];
  return Object.entries(files)
    .filter(([rel]) => day(rel) && fileFor(e, { date: day(rel)! }, 'parquet') === rel)
    .map(([, f]) => objectPath(outDir, f.object, 'archive'));
}

/** The Table Schema type of each archive column (run_start_time is a UTC datetime without an offset). */
const FIELD = (c: (typeof ARCHIVE_COLUMNS)[number]) =>
  c.name === 'run_start_time'
    ? { name: c.name, type: 'datetime', format: '%Y-%m-%d %H:%M:%S', description: c.description }
    : { name: c.name, type: c.type, description: c.description };

/** /api/v1/archive/datapackage.json: the finished days' CSVs as a Frictionless tabular Data Package. */
function dataPackage(days: Written[], simulated: boolean) {
  const schema = { fields: ARCHIVE_COLUMNS.map(FIELD), primaryKey: ['fips', 'run_start_time'] };
  return {
    profile: 'tabular-data-package',
    name: 'us-power-outage-archive',
    title: `US power outages by county, every 15 minutes${simulated ? ' (SIMULATED)' : ''}`,
    description: `${dataNotice(simulated)} One CSV per finished UTC day in EAGLE-I's layout plus this service's columns; the same rows as Parquet at days/{date}.parquet. A county absent at a quarter hour had no one out; a quarter hour absent from a day was not reached by the poller.`,
    licenses: [
      {
        name: 'CC-BY-4.0',
        title: 'Creative Commons Attribution 4.0',
        path: 'https://creativecommons.org/licenses/by/4.0/',
      },
    ],
    sources: [{ title: "The utilities' own public outage feeds, as polled by this service" }],
    resources: days.map((d) => ({
      name: `archive-${d.day}`,
      profile: 'tabular-data-resource',
      path: `days/${d.day}.csv`,
      format: 'csv',
      mediatype: 'text/csv',
      encoding: 'utf-8',
      bytes: d.csv_bytes,
      hash: `sha256:${d.csv_sha256}`,
      schema,
    })),
  };
}

function indexDoc(
  written: Written[],
  today: { day: string; rows: number; quarters: number } | undefined,
  simulated: boolean,
) {
  const e = endpoint('archive.day');
  return {
    simulated,
    first_quarter: null as string | null,
    last_quarter: null as string | null,
    columns: ARCHIVE_COLUMNS,
    days: written.map((r) => ({
      day: r.day,
      rows: r.rows,
      quarters: r.quarters,
      csv: { url: urlFor(e, { date: r.day }, { format: 'csv' }), bytes: r.csv_bytes, sha256: r.csv_sha256 },
      parquet: { url: urlFor(e, { date: r.day }), bytes: r.parquet_bytes, sha256: r.parquet_sha256 },
    })),
    today: today ?? null,
  };
}
