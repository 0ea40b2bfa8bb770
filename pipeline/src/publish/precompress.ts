// Precompressed siblings of published objects (issue 28 part 3): `.objects/ab/<sha>.br` and `.gz` beside a text
// object of at least 1 KB, written with it before the manifest that names it, so the mirror links them next to the
// file (`map.json.br`, what nginx's brotli_static and gzip_static send) and the local server sends them without
// compressing per request. A sibling is a function of its object's bytes: written with each new object (before any
// manifest lists it) and removed with it.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import { CODINGS, SIBLING_SUFFIX, type Coding } from '../contract/encodings.ts';
import { tempPathFor } from './atomic-write.ts';
import { classify } from './object-store-keys.ts';
import type { Encodings } from './tree-parts.ts';
import { EncodePool } from './encode-pool.ts';

/**
 * How hard each coding works (brotli quality, gzip level). Measured on a national storm cycle's 1,609 text objects
 * (95 MB, 89 MB of them county details), CPU on one thread: brotli 4 / 5 take 425 / 678 ms for 6.4 / 5.6 MB; gzip
 * 3 / 6 take 241 / 542 ms for 7.5 / 6.2 MB. So the entry points, few and fetched by every visitor, get brotli 5 and
 * gzip 6; a county's or a report's files, most of a storm cycle's bytes and each fetched by few, brotli 4 and gzip 3
 * (half the CPU for 14–20 % more bytes). An answer coded per request gets brotli 4 and gzip 6.
 */
export const EFFORT = {
  entry: { br: 5, gzip: 6 },
  keyed: { br: 4, gzip: 3 },
  request: { br: 4, gzip: 6 },
} as const satisfies Record<string, Record<Coding, number>>;
export type Effort = keyof typeof EFFORT;

/** A published file's effort: an entry point's (a catalogue path without parameters) or a keyed file's. */
export const effortFor = (rel: string): Effort => (classify(rel).entry ? 'entry' : 'keyed');

/**
 * Objects compressed at once by a publish (on the compression threads): about one per core. More only adds CPU on a 2-core
 * machine (16 at once cost up to 2× the CPU of 2: the compressors' buffers thrash), and the rendering needs a core.
 */
export const ENCODE_CONCURRENCY = Math.max(2, os.availableParallelism() - 1);

/** The process's compression threads (encode-pool.ts), started on first use. */
let pool: EncodePool | null = null;

/** Compresses `body` on a compression thread (never on the thread answering requests or rendering files). */
export function encode(body: Buffer, coding: Coding, effort: Effort): Promise<Buffer> {
  const level = EFFORT[effort][coding];
  pool ??= new EncodePool(ENCODE_CONCURRENCY);
  if (coding === 'gzip') return pool.encode(body, { coding: 'gzip', level });
  return pool.encode(body, { coding: 'br', quality: level, sizeHint: body.length, text: true });
}

export const siblingPath = (file: string, coding: Coding): string => `${file}${SIBLING_SUFFIX[coding]}`;

/** Writes the siblings of the object at `objectFile` (holding `body`) and returns their lengths. */
export async function writeSiblings(objectFile: string, body: Buffer, effort: Effort): Promise<Encodings> {
  const encodings: Encodings = {};
  for (const coding of CODINGS) {
    const coded = await encode(body, coding, effort);
    await writeSibling(siblingPath(objectFile, coding), coded);
    encodings[coding] = coded.length;
  }
  return encodings;
}

/**
 * As tree-writer.ts writes objects: created exclusively, in place, so a kill leaves no temporary file behind. One
 * already there of the right length holds these bytes (a sibling is a function of its object's); one of another
 * length is torn by a kill before any manifest listed it, or made by another zlib, and is replaced whole.
 */
async function writeSibling(file: string, coded: Buffer): Promise<void> {
  try {
    await fsp.writeFile(file, coded, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if ((await fsp.stat(file)).size === coded.length) return;
    const tmp = tempPathFor(file);
    await fsp.writeFile(tmp, coded);
    await fsp.rename(tmp, file);
  }
}

/** Deletes an object's siblings (with the object, when no manifest names it any more). */
export function removeSiblings(objectFile: string): void {
  for (const coding of CODINGS) fs.rmSync(siblingPath(objectFile, coding), { force: true });
}
