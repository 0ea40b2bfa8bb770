// Fetching for `outage history update`: each URL is downloaded once per run (several EIA-861 entries share one zip),
// a zip member is extracted, and the file the importer will read is named and hashed (sha256 decides "unchanged").
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as XLSX from '@e965/xlsx';
import { UsageError } from '../errors.ts';
import { fetchToFile } from './download.ts';
import type { HistorySource } from './update-config.ts';

export interface FetchedFile {
  /** the file to import, named as the importer expects */
  file: string;
  sha256: string;
  bytes: number;
}

export async function sha256Of(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return { sha256: hash.digest('hex'), bytes: fs.statSync(file).size };
}

/** What SheetJS's bundled CFB reader gives for a zip (its types are not shipped). */
interface ZipEntry {
  name: string;
  /** 2 = a file */
  type: number;
  content?: Uint8Array | number[];
}

/** The member of a zip archive (matched by its name, in any folder, case-insensitive), written beside the zip. */
function extractMember(zipFile: string, member: string, to: string): void {
  let archive: { FileIndex: ZipEntry[] };
  try {
    archive = XLSX.CFB.read(fs.readFileSync(zipFile), { type: 'buffer' });
  } catch (err) {
    throw new UsageError(
      `The download is not a readable zip archive (${(err as Error).message}); has the publisher changed the file?`,
    );
  }
  const want = member.toLowerCase();
  const entry = archive.FileIndex.find((e) => e.type === 2 && e.name.toLowerCase() === want);
  if (!entry?.content)
    throw new UsageError(
      `The zip has no ${member} (it holds ${archive.FileIndex.filter(
        (e) => e.type === 2 && !e.name.startsWith('\u0001'),
      )
        .map((e) => e.name)
        .slice(0, 12)
        .join(', ')}); the publisher may have renamed it: update \`member\` in the history sources file.`,
    );
  fs.writeFileSync(to, Buffer.from(entry.content));
}

/** Downloads of one run, by URL; `close()` deletes them all. */
export class Fetcher {
  private readonly downloads = new Map<string, Promise<{ file: string; cleanup: () => void }>>();

  constructor(private readonly download = fetchToFile) {}

  /** Downloads (once per URL) and prepares the file of `source`; throws a UsageError saying what went wrong. */
  async fetch(source: HistorySource): Promise<FetchedFile> {
    let pending = this.downloads.get(source.url);
    if (!pending) {
      pending = this.download(source.url);
      this.downloads.set(source.url, pending);
    }
    const { file: downloaded } = await pending;
    const target = path.join(path.dirname(downloaded), source.fileName);
    if (source.member) extractMember(downloaded, source.member, target);
    else if (target !== downloaded) {
      fs.rmSync(target, { force: true });
      fs.linkSync(downloaded, target); // same folder: a second name, not a copy of a 1 GB file
    }
    return { file: target, ...(await sha256Of(target)) };
  }

  /** Deletes the download of `url` (if any). */
  async release(url: string): Promise<void> {
    const pending = this.downloads.get(url);
    this.downloads.delete(url);
    try {
      (await pending)?.cleanup();
    } catch {
      // a failed download has already removed its folder
    }
  }

  async close(): Promise<void> {
    for (const url of [...this.downloads.keys()]) await this.release(url);
  }
}
