// The archive as published files (issue 25 part 2): each finished UTC day once, as Parquet (zstd) and CSV in EAGLE-I's
// layout, immutable (long cache; carried over every cycle, never rewritten), listed in /api/v1/archive with rows,
// bytes and sha256; and, for the function layer's past map and county series, an internal document per day (the day
// in progress rewritten each cycle, a finished one once).
import { endpoint } from '../contract/catalogue.ts';
import { fileFor, urlFor } from '../contract/urls.ts';
import type { Db } from '../state/db.ts';
import { ARCHIVE_COLUMNS, archivedDays } from '../state/archive-read.ts';
import { dayDoc, dayFiles, sha256 } from '../state/archive-day.ts';
import type { TreeWriter } from './tree-writer.ts';

/** The function layer's document of one archived day (not a public URL). */
export const archiveDayDoc = (day: string): string => `api/v1/archive/_days/${day}.json`;

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

export async function publishArchive(w: TreeWriter, db: Db, now: Date, simulated: boolean): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  const written = new Map((await db.all<Written>('SELECT * FROM archive_files')).map((r) => [r.day, r]));
  const last = [...written.keys()].sort().at(-1);
  const days = await archivedDays(db, last); // the days not written yet, and today
  const e = endpoint('archive.day');
  const rels = (day: string) => [
    fileFor(e, { date: day }, 'csv'),
    fileFor(e, { date: day }, 'parquet'),
    archiveDayDoc(day),
  ];
  // Written days are carried over; one the tree lost (a new output directory) is written again from the archive.
  for (const [day, row] of written)
    if (!rels(day).every((r) => w.keep(r)))
      written.set(day, await writeDay(w, db, { day, quarters: row.quarters }, rels(day), now));
  const finished = days.filter((x) => x.day < today);
  for (const d of finished) written.set(d.day, await writeDay(w, db, d, rels(d.day), now));
  // A finished day's rows are read again only if its files are lost: give back the blocks DuckDB cached for them.
  if (finished.length) await db.releaseMemory();
  const current = days.find((x) => x.day === today);
  if (current) putDoc(w, archiveDayDoc(today), await dayDoc(db, today));
  const index = indexDoc(
    [...written.values()].sort((a, b) => a.day.localeCompare(b.day)),
    current,
    simulated,
  );
  index.first_quarter =
    (await db.all<{ q: string | null }>('SELECT min(quarter_at) AS q FROM archive_quarters'))[0]?.q ?? null;
  putDoc(w, fileFor(endpoint('archive'), {}, 'json'), index);
}

/** A finished day's three files, put once; its row in archive_files says what was published. */
async function writeDay(
  w: TreeWriter,
  db: Db,
  d: { day: string; quarters: number },
  [csvRel, parquetRel, docRel]: string[],
  now: Date,
): Promise<Written> {
  const files = await dayFiles(db, d.day);
  w.put(csvRel, () => files.csv, files.csv);
  w.put(parquetRel, () => files.parquet, files.parquet);
  putDoc(w, docRel, await dayDoc(db, d.day));
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

function indexDoc(
  written: Written[],
  today: { day: string; rows: number; quarters: number } | undefined,
  simulated: boolean,
) {
  const e = endpoint('archive.day');
  return {
    simulated,
    first_quarter: null as string | null,
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
