// `outage history update` (issue #11 part 3): download every configured history file, skip those whose sha256 is the
// one last imported, import new or changed ones through the real importers, then derive and publish once. A failed
// download or a file whose layout changed is reported and leaves the previous data as it was (importers replace a
// year only after the whole file has parsed), so what is served stays the last good history.
import fs from 'node:fs';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { publishHistoryIfChanged } from '../publish/reports.ts';
import type { Db } from '../state/db.ts';
import { countyModel, loadCountyModel } from '../geo/county-model.ts';
import { deriveEpisodes } from './derive.ts';
import {
  importCoverage,
  importEagleI,
  importEia861,
  importMcc,
  importOe417,
  type ImportSummary,
  type Progress,
} from './import.ts';
import type { HistoryKind, HistorySource } from './update-config.ts';
import { Fetcher } from './update-fetch.ts';
import { markHistoryChanged } from './version.ts';

type Importer = (db: Db, file: string, onProgress?: Progress) => Promise<ImportSummary>;
const IMPORTERS: Record<HistoryKind, Importer> = {
  eaglei: importEagleI,
  mcc: importMcc,
  coverage: importCoverage,
  oe417: importOe417,
  eia861: importEia861,
};

export interface FileOutcome {
  id: string;
  kind: HistoryKind;
  url: string;
  /** not_due: imported successfully less than recheck_days ago, not downloaded this run */
  status: 'imported' | 'unchanged' | 'not_due' | 'failed' | 'disabled';
  sha256: string | null;
  message: string;
  summary?: ImportSummary;
}

/** What the last successful import of each entry was (the state file, JSON). */
export interface UpdateState {
  files: Record<
    string,
    {
      url: string;
      sha256: string;
      bytes: number;
      imported_at: string;
      /** the last time the file was downloaded and compared (or imported) */
      checked_at: string;
      years: number[];
      last_error?: string;
    }
  >;
}

export function readUpdateState(file: string): UpdateState {
  if (!fs.existsSync(file)) return { files: {} };
  const state = JSON.parse(fs.readFileSync(file, 'utf8')) as UpdateState;
  return { files: state.files ?? {} };
}

async function updateOne(db: Db, source: HistorySource, fetcher: Fetcher, state: UpdateState, now: Date) {
  const prev = state.files[source.id];
  const due = prev ? Date.parse(prev.checked_at ?? prev.imported_at) + source.recheckDays * 86_400_000 : 0;
  if (prev && source.recheckDays > 0 && !prev.last_error && now.getTime() < due)
    return {
      status: 'not_due' as const,
      sha256: prev.sha256,
      message: `checked ${prev.checked_at}; next check after ${new Date(due).toISOString()}`,
    };
  const fetched = await fetcher.fetch(source);
  if (prev && prev.sha256 === fetched.sha256) {
    delete prev.last_error;
    prev.checked_at = now.toISOString();
    return { status: 'unchanged' as const, sha256: fetched.sha256, message: `unchanged since ${prev.imported_at}` };
  }
  const summary = await IMPORTERS[source.kind](db, fetched.file);
  state.files[source.id] = {
    url: source.url,
    sha256: fetched.sha256,
    bytes: fetched.bytes,
    imported_at: now.toISOString(),
    checked_at: now.toISOString(),
    years: summary.years,
  };
  const message = `${summary.rows_loaded.toLocaleString('en-US')} rows loaded, ${summary.rows_rejected.toLocaleString('en-US')} rejected, years ${summary.years.join(', ')}`;
  return { status: 'imported' as const, sha256: fetched.sha256, message, summary };
}

/**
 * Runs every enabled source in order. The state file is rewritten after each import, so an interrupted run resumes
 * where it stopped; a failure keeps the previous checksum (the file is retried next time) and records the error.
 */
export async function updateHistory(
  db: Db,
  sources: HistorySource[],
  opts: { stateFile: string; now: Date; fetcher?: Fetcher; onOutcome?: (o: FileOutcome) => void },
): Promise<FileOutcome[]> {
  const state = readUpdateState(opts.stateFile);
  const fetcher = opts.fetcher ?? new Fetcher();
  const outcomes: FileOutcome[] = [];
  try {
    for (const [i, source] of sources.entries()) {
      const base = { id: source.id, kind: source.kind, url: source.url };
      let outcome: FileOutcome;
      if (!source.enabled)
        outcome = { ...base, status: 'disabled', sha256: null, message: 'disabled in the sources file' };
      else {
        try {
          outcome = { ...base, ...(await updateOne(db, source, fetcher, state, opts.now)) };
        } catch (err) {
          const message = (err as Error).message;
          outcome = { ...base, status: 'failed', sha256: null, message };
          if (state.files[source.id]) state.files[source.id].last_error = message;
        }
        writeFileAtomic(opts.stateFile, `${JSON.stringify(state, null, 2)}\n`);
      }
      // A yearly EAGLE-I file is over 1 GB: delete each download as soon as no later entry reads it.
      if (!sources.slice(i + 1).some((s) => s.url === source.url)) await fetcher.release(source.url);
      outcomes.push(outcome);
      opts.onOutcome?.(outcome);
    }
  } finally {
    await fetcher.close();
  }
  return outcomes;
}

/** After imports: episodes again (they depend on the series and the MCC denominators), then the report tables. */
export async function derivePublish(db: Db, out: string, now: Date) {
  const episodes = await deriveEpisodes(db, await countyModel(db, loadCountyModel()));
  await markHistoryChanged(db);
  const published = await publishHistoryIfChanged(db, out, { now });
  return { episodes, published };
}
