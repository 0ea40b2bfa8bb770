// The one way the project writes a file readers may see: a temporary sibling, then rename(2), so a reader (or a kill)
// meets the old file or the new one, never half of one. Temporary names end in `.tmp` (repairs sweep them).
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

let counter = 0;

/** A temporary name beside `file`, unique within this process. */
export function tempPathFor(file: string): string {
  return `${file}.${process.pid}.${counter++}.tmp`;
}

/** Writes `body` to `file` atomically (creating its directory). */
export function writeFileAtomic(file: string, body: Buffer | string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = tempPathFor(file);
  fs.writeFileSync(tmp, body);
  fs.renameSync(tmp, file);
}

export async function writeFileAtomicAsync(file: string, body: Buffer | string): Promise<void> {
  const tmp = tempPathFor(file);
  await fsp.writeFile(tmp, body);
  await fsp.rename(tmp, file);
}

/** For writers that produce the file themselves (DuckDB COPY): write to `tmp`, then `commit()`. */
export function atomicTarget(file: string): { tmp: string; commit: () => void } {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = tempPathFor(file);
  return { tmp, commit: () => fs.renameSync(tmp, file) };
}
