import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { FsTreeWriter } from './tree-writer.ts';
import { MANIFEST, readManifest } from './tree-parts.ts';
import { putJson } from './formats.ts';
import { PublishedTree } from './published-tree.ts';
import { testTempDir } from '../../test/clean-machine.ts';

const tmp = () => testTempDir('tree');
const publish = async (out: string, at: string, files: Record<string, unknown>) => {
  const w = new FsTreeWriter(out, new Date(at));
  for (const [f, data] of Object.entries(files)) putJson(w, f, data as Record<string, unknown>);
  return await w.commit({ simulated: false, notice: 'n' });
};

describe('FsTreeWriter', () => {
  it('rewrites only what changed and keeps generated_at of unchanged files', async () => {
    const out = tmp();
    expect(
      await publish(out, '2026-01-01T00:00:00Z', { 'api/v1/a/index.json': { n: 1 }, 'api/v1/b/index.json': { n: 2 } }),
    ).toMatchObject({ written: 2, unchanged: 0, removed: 0 });
    const statA = fs.statSync(path.join(out, 'api/v1/a/index.json'));
    expect(
      await publish(out, '2026-01-01T00:10:00Z', { 'api/v1/a/index.json': { n: 1 }, 'api/v1/b/index.json': { n: 3 } }),
    ).toMatchObject({ written: 1, unchanged: 1, removed: 0 });
    const statA2 = fs.statSync(path.join(out, 'api/v1/a/index.json'));
    expect([statA2.ino, statA2.mtimeMs]).toEqual([statA.ino, statA.mtimeMs]);
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(out, f), 'utf8')).data;
    expect(read('api/v1/a/index.json').generated_at).toBe('2026-01-01T00:00:00.000Z');
    expect(read('api/v1/b/index.json')).toEqual({ generated_at: '2026-01-01T00:10:00.000Z', n: 3 });
    expect(await publish(out, '2026-01-01T00:20:00Z', { 'api/v1/a/index.json': { n: 1 } })).toMatchObject({
      written: 0,
      unchanged: 1,
      removed: 1,
    });
    expect(fs.existsSync(path.join(out, 'api/v1/b/index.json'))).toBe(false);
  });

  it('serves the previous complete tree when a publish dies before its commit', async () => {
    const out = tmp();
    await publish(out, '2026-01-01T00:00:00Z', { 'api/v1/a/index.json': { n: 1 }, 'api/v1/b/index.json': { n: 1 } });
    const tree = new PublishedTree(out);
    const before = readManifest(out)!.generation;
    const crashed = new FsTreeWriter(out, new Date('2026-01-01T00:05:00Z'));
    putJson(crashed, 'api/v1/a/index.json', { n: 99 });
    putJson(crashed, 'api/v1/b/index.json', { n: 99 });
    // no commit: the process died here
    expect(readManifest(out)!.generation).toBe(before);
    expect(JSON.parse(tree.read('api/v1/a/index.json')!.body.toString()).data.n).toBe(1);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'api/v1/b/index.json'), 'utf8')).data.n).toBe(1);
  });

  it('switches generations with one rename, so a reader never mixes two', async () => {
    const out = tmp();
    await publish(out, '2026-01-01T00:00:00Z', { 'api/v1/a/index.json': { n: 1 } });
    const ino = fs.statSync(path.join(out, MANIFEST)).ino;
    await publish(out, '2026-01-01T00:01:00Z', { 'api/v1/a/index.json': { n: 2 } });
    expect(fs.statSync(path.join(out, MANIFEST)).ino).not.toBe(ino);
    const tree = new PublishedTree(out);
    const f = tree.read('api/v1/a/index.json')!;
    expect(JSON.parse(f.body.toString()).data.n).toBe(2);
    expect(f.etag).toBe(`"${readManifest(out)!.files['api/v1/a/index.json'].object}"`);
  });

  it('repairs a mirror whose last sync was interrupted', async () => {
    const out = tmp();
    await publish(out, '2026-01-01T00:00:00Z', { 'api/v1/a/index.json': { n: 1 } });
    fs.rmSync(path.join(out, 'api/v1/a/index.json'));
    fs.writeFileSync(path.join(out, '.mirror.json'), '{"generation":"interrupted"}');
    await publish(out, '2026-01-01T00:01:00Z', { 'api/v1/a/index.json': { n: 1 } });
    expect(JSON.parse(fs.readFileSync(path.join(out, 'api/v1/a/index.json'), 'utf8')).data.n).toBe(1);
  });

  it('refuses a path that leaves the output root', () => {
    const w = new FsTreeWriter(tmp(), new Date());
    expect(() => putJson(w, '../escape.json', {})).toThrow(/leaves the output root/);
  });
});
