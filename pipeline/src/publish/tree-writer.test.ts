import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsTreeWriter, readManifest } from './tree-writer.ts';
import { putJson } from './formats.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'tree-'));

describe('FsTreeWriter', () => {
  it('publishes a generation atomically and keeps unchanged files (same inode, same generated_at)', () => {
    const out = tmp();
    const w1 = new FsTreeWriter(out, new Date('2026-01-01T00:00:00Z'));
    putJson(w1, 'api/v1/a/index.json', { n: 1 });
    putJson(w1, 'api/v1/b/index.json', { n: 2 });
    expect(w1.commit({ simulated: false, notice: 'n' })).toEqual({ written: 2, unchanged: 0, removed: 0 });
    const inodeA = fs.statSync(path.join(out, 'api/v1/a/index.json')).ino;

    const w2 = new FsTreeWriter(out, new Date('2026-01-01T00:10:00Z'));
    putJson(w2, 'api/v1/a/index.json', { n: 1 });
    putJson(w2, 'api/v1/b/index.json', { n: 3 });
    expect(w2.commit({ simulated: false, notice: 'n' })).toEqual({ written: 1, unchanged: 1, removed: 0 });
    expect(fs.statSync(path.join(out, 'api/v1/a/index.json')).ino).toBe(inodeA);
    const a = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/a/index.json'), 'utf8'));
    const b = JSON.parse(fs.readFileSync(path.join(out, 'api/v1/b/index.json'), 'utf8'));
    expect(a.data.generated_at).toBe('2026-01-01T00:00:00.000Z');
    expect(b.data).toEqual({ generated_at: '2026-01-01T00:10:00.000Z', n: 3 });
  });

  it('leaves the previous complete tree served when a publish dies before commit', () => {
    const out = tmp();
    const w1 = new FsTreeWriter(out, new Date('2026-01-01T00:00:00Z'));
    putJson(w1, 'api/v1/a/index.json', { n: 1 });
    w1.commit({ simulated: false, notice: 'n' });
    const before = readManifest(out)!.generation;
    const crashed = new FsTreeWriter(out, new Date('2026-01-01T00:05:00Z'));
    putJson(crashed, 'api/v1/a/index.json', { n: 99 });
    // no commit: the process "crashed" here
    expect(readManifest(out)!.generation).toBe(before);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'api/v1/a/index.json'), 'utf8')).data.n).toBe(1);
    // the next publish cleans the abandoned generation up
    const w3 = new FsTreeWriter(out, new Date('2026-01-01T00:10:00Z'));
    putJson(w3, 'api/v1/a/index.json', { n: 2 });
    w3.commit({ simulated: false, notice: 'n' });
    expect(fs.readdirSync(path.join(out, '.generations'))).toHaveLength(2);
  });

  it('refuses a path that leaves the output root', () => {
    const w = new FsTreeWriter(tmp(), new Date());
    expect(() => putJson(w, '../escape.json', {})).toThrow(/leaves the output root/);
  });
});
