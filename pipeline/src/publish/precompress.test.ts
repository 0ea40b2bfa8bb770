// Precompressed siblings in the object store and the plain-file mirror (issue 28 part 3): written with their object,
// linked beside their file, deleted with it, repaired like any mirror file, copied by `export --precompressed`.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { FsTreeWriter } from './tree-writer.ts';
import { objectPath, readManifest } from './tree-parts.ts';
import { repairMirror } from './mirror.ts';
import { exportTree } from '../cli/export.ts';
import { testTempDir } from '../../test/clean-machine.ts';

const BIG = 'api/v1/live/summary.json';
const CSV = 'api/v1/live/counties/12086.incidents.csv';
const TINY = 'api/v1/live/map.json';
const PNG = 'api/v1/reports/2024/chart.png';
const ROOT = 'llms.txt';
const INTERNAL = 'api/v1/live/_frames.json';

const big = (n: number) => Buffer.from(JSON.stringify({ data: { n, rows: Array.from({ length: 400 }, (_, i) => i) } }));
const csv = Buffer.from(`id,customers_out\n${Array.from({ length: 300 }, (_, i) => `o${i},${i}`).join('\n')}\n`);
const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(4000, 7)]);

async function publish(out: string, at: string, files: Record<string, Buffer>) {
  const w = new FsTreeWriter(out, new Date(at));
  for (const [rel, body] of Object.entries(files)) w.put(rel, () => body, body);
  return w.commit({ simulated: false, notice: 'n' });
}
const decode = (file: string) =>
  file.endsWith('.br') ? zlib.brotliDecompressSync(fs.readFileSync(file)) : zlib.gunzipSync(fs.readFileSync(file));
const ino = (file: string) => fs.statSync(file).ino;

describe('precompressed siblings', () => {
  it('are written once per text object of 1 KB or more and linked beside its mirror file', async () => {
    const out = testTempDir('precompress');
    const first = { [BIG]: big(1), [CSV]: csv, [TINY]: Buffer.from('{"data":{}}'), [PNG]: png };
    const stats = await publish(out, '2026-01-01T00:00:00Z', {
      ...first,
      [ROOT]: Buffer.alloc(2000, 'a'),
      [INTERNAL]: big(9),
    });
    const files = readManifest(out)!.files;
    expect(stats.precompressed?.objects).toBe(3); // BIG, CSV, llms.txt
    for (const rel of [BIG, CSV, ROOT]) {
      const object = objectPath(out, files[rel].object);
      for (const [suffix, coding] of [
        ['.br', 'br'],
        ['.gz', 'gzip'],
      ] as const) {
        expect(decode(path.join(out, rel + suffix)), rel + suffix).toEqual(fs.readFileSync(object));
        expect(ino(path.join(out, rel + suffix)), rel + suffix).toBe(ino(object + suffix));
        expect(files[rel].encodings?.[coding], rel).toBe(fs.statSync(object + suffix).size);
      }
      expect(files[rel].encodings!.br!).toBeLessThan(files[rel].bytes / 2);
    }
    // Tiny, binary and internal files have none.
    for (const rel of [TINY, PNG, INTERNAL]) {
      expect(files[rel].encodings, rel).toBeUndefined();
      expect(fs.existsSync(path.join(out, `${rel}.br`)), rel).toBe(false);
      expect(fs.existsSync(`${objectPath(out, files[rel].object)}.gz`), rel).toBe(false);
    }
  });

  it('follow their file: a file that shrinks below 1 KB or goes loses them, and they go with their object', async () => {
    const out = testTempDir('precompress');
    await publish(out, '2026-01-01T00:00:00Z', { [BIG]: big(1), [CSV]: csv });
    const old = objectPath(out, readManifest(out)!.files[BIG].object);
    await publish(out, '2026-01-01T00:01:00Z', { [BIG]: Buffer.from('{"data":{"n":2}}') });
    expect(['.br', '.gz'].map((s) => fs.existsSync(path.join(out, BIG + s)))).toEqual([false, false]);
    expect(fs.existsSync(path.join(out, 'api/v1/live/counties'))).toBe(false); // CSV and its siblings gone, dir pruned
    expect(fs.existsSync(`${old}.br`)).toBe(true); // garbage of the last generation: kept for one more
    await publish(out, '2026-01-01T00:02:00Z', { [BIG]: Buffer.from('{"data":{"n":3}}') });
    expect([fs.existsSync(old), fs.existsSync(`${old}.br`), fs.existsSync(`${old}.gz`)]).toEqual([false, false, false]);
  });

  it('are repaired like any mirror file, and copied by export --precompressed only', async () => {
    const out = testTempDir('precompress');
    await publish(out, '2026-01-01T00:00:00Z', { [BIG]: big(1), [CSV]: csv, [TINY]: Buffer.from('{}') });
    const file = (rel: string) => path.join(out, rel);
    fs.rmSync(file(`${BIG}.br`)); // missing
    fs.rmSync(file(`${CSV}.gz`));
    fs.writeFileSync(file(`${CSV}.gz`), zlib.gzipSync(Buffer.from('another generation'))); // wrong
    fs.writeFileSync(file(`${TINY}.br`), 'stale'); // extra: the file has no sibling now
    expect(await repairMirror(out, { verify: true })).toMatchObject({ missing: 1, relinked: 1, extra: 1 });
    const object = (rel: string) => objectPath(out, readManifest(out)!.files[rel].object);
    expect([ino(file(`${BIG}.br`)), ino(file(`${CSV}.gz`))]).toEqual([
      ino(`${object(BIG)}.br`),
      ino(`${object(CSV)}.gz`),
    ]);
    expect(fs.existsSync(file(`${TINY}.br`))).toBe(false);

    const plain = path.join(out, '..', `${path.basename(out)}-plain`);
    const coded = path.join(out, '..', `${path.basename(out)}-coded`);
    try {
      expect(exportTree(out, plain)).toBe(3);
      expect(fs.existsSync(path.join(plain, `${BIG}.br`))).toBe(false);
      exportTree(out, coded, { precompressed: true });
      expect(decode(path.join(coded, `${BIG}.br`))).toEqual(fs.readFileSync(path.join(coded, BIG)));
      expect(decode(path.join(coded, `${CSV}.gz`))).toEqual(csv);
      expect(fs.existsSync(path.join(coded, `${TINY}.gz`))).toBe(false);
    } finally {
      for (const d of [plain, coded]) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
