// A storm cycle rebuilds the detail documents (areas, incidents) of the counties its changed sources list now or
// listed before, and carries every other county's over (issue #12). Whatever it skipped, a full rebuild finds
// identical; a publish that failed is redone by the next cycle even when nothing else moved.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter, type PublishStats } from '../src/publish/tree-writer.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { endpoint } from '../src/contract/catalogue.ts';
import { fileFor } from '../src/contract/urls.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const AT = {
  miami: { x: -80.45, y: 25.6 }, // Miami-Dade, 12086
  broward: { x: -80.3, y: 26.15 }, // Broward, 12011
  palmBeach: { x: -80.2, y: 26.65 }, // Palm Beach, 12099
};
type Place = keyof typeof AT;
const layer = (id: string, points: Array<[Place, number]>) => ({
  features: points.map(([place, n], i) => ({
    attributes: { OUTAGE_ID: `${id}-${i}`, EST_CUSTOMERS: n },
    geometry: AT[place],
  })),
});
const incidentsFile = (fips: string) => fileFor(endpoint('live.county.incidents'), { fips }, 'json');
const DETAIL = /\/counties\/\d{5}\.(areas|incidents)\./;

/** The in-memory tree, recording which files it rendered; it can fail one commit. */
class RecordingWriter extends MemoryTreeWriter {
  rendered: string[] = [];
  failNext = false;
  override put(rel: string, render: (g: string) => Buffer, basis: Buffer): void {
    const recording = (g: string): Buffer => {
      this.rendered.push(rel);
      return render(g);
    };
    super.put(rel, recording, basis);
  }
  override async commit(meta: { simulated: boolean; notice: string }): Promise<PublishStats> {
    if (!this.failNext) return super.commit(meta);
    this.failNext = false;
    this.pending = new Map();
    throw new Error('disk full');
  }
}

describe('incremental county details', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('detail-incremental');
  const clock = manualClock(new Date('2026-09-01T12:01:00Z'));
  const tree = new RecordingWriter(clock());
  let p: Pipeline;
  const mk = (id: string) =>
    sourceDef({ id, connector: 'arcgis', states: ['FL'], url: `${feed.base}/${id}/0`, interval_min: 5, options: {} });
  const incidents = (fips: string) => {
    const f = tree.files.get(incidentsFile(fips));
    return f
      ? (JSON.parse(String(f.body)).data.incidents as Array<{ source_id: string; customers_out: number }>)
      : null;
  };
  /** One cycle a minute on; the detail files it rendered. */
  const cycle = async () => {
    clock.advance(60_000);
    tree.rendered = [];
    await p.cycle({ all: true });
    return tree.rendered.filter((f) => DETAIL.test(f));
  };
  /** A full rebuild renders no detail file: the cycles left none stale. */
  const rebuildFindsNothing = async () => {
    tree.rendered = [];
    await p.build();
    expect(tree.rendered.filter((f) => DETAIL.test(f))).toEqual([]);
  };

  beforeAll(async () => {
    await feed.start();
    feed.set('/a/0/query', layer('a', [['miami', 400]]));
    feed.set('/b/0/query', layer('b', [['broward', 300]]));
    feed.set('/c/0/query', layer('c', [['miami', 50]]));
    p = await Pipeline.open({
      stateDir: path.join(tmp.dir, 'state'),
      outDir: path.join(tmp.dir, 'public'),
      sources: ['a', 'b', 'c'].map(mk),
      clock,
      simulated: false,
      http: LOOPBACK_HTTP,
      writer: (now) => Object.assign(tree, { now }),
    });
    await p.cycle({ all: true });
  });
  afterAll(async () => {
    await p?.close();
    await feed.stop();
    tmp.remove();
  });

  it('the first cycle builds every county with an outage', async () => {
    expect([...tree.files.keys()].filter((f) => DETAIL.test(f))).toHaveLength(12); // 2 counties × 2 docs × 3 formats
    expect(incidents('12086')?.map((i) => i.source_id)).toEqual(['a', 'c']);
    expect(incidents('12011')?.map((i) => i.customers_out)).toEqual([300]);
    await rebuildFindsNothing();
  });

  it('a changed source rebuilds only its counties', async () => {
    feed.set(
      '/b/0/query',
      layer('b', [
        ['broward', 300],
        ['broward', 20],
      ]),
    );
    const rendered = await cycle();
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.every((f) => f.includes('/counties/12011.'))).toBe(true);
    expect(incidents('12011')?.map((i) => i.customers_out)).toEqual([300, 20]);
    await rebuildFindsNothing();
  });

  it('a source that moves rebuilds the county it left and the one it reached', async () => {
    feed.set('/a/0/query', layer('a', [['palmBeach', 400]]));
    const rendered = new Set((await cycle()).map((f) => f.split('/counties/')[1].slice(0, 5)));
    expect(rendered).toEqual(new Set(['12086', '12099']));
    expect(incidents('12086')?.map((i) => i.source_id)).toEqual(['c']);
    expect(incidents('12099')?.map((i) => i.source_id)).toEqual(['a']);
    await rebuildFindsNothing();
  });

  it('a publish that failed is redone by the next cycle, though nothing changed since', async () => {
    feed.set('/b/0/query', layer('b', [['broward', 5]]));
    tree.failNext = true;
    clock.advance(60_000);
    await expect(p.cycle({ all: true })).rejects.toThrow('disk full');
    expect(incidents('12011')?.map((i) => i.customers_out)).toEqual([300, 20]);
    const rendered = await cycle();
    expect(rendered.some((f) => f.includes('/counties/12011.'))).toBe(true);
    expect(incidents('12011')?.map((i) => i.customers_out)).toEqual([5]);
    await rebuildFindsNothing();
  });
});
