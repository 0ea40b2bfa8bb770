// A cycle in which every polled source answers with the data it had costs what it must (issue #12 part 1): the poll
// log and statuses are stored, only /live/sources is written, nothing is re-evaluated. It still evaluates when time
// alone changes something: a new timeline frame, or a feed that was stale recovering with the same data.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const MIAMI = { x: -80.45, y: 25.6 };
/** The in-memory tree, counting the documents handed to it (rendered, or hashed to find them unchanged). */
class CountingWriter extends MemoryTreeWriter {
  puts = 0;
  override put(...args: Parameters<MemoryTreeWriter['put']>): void {
    this.puts += 1;
    super.put(...args);
  }
}

const layer = (n: number) => ({ features: [{ attributes: { OUTAGE_ID: 'a', EST_CUSTOMERS: n }, geometry: MIAMI }] });

describe('quiet cycles', () => {
  const feed = new ScriptedFeed();
  const tmp = tempDir('quiet');
  const clock = manualClock(new Date('2026-09-01T12:01:00Z'));
  let p: Pipeline;
  const tree = new CountingWriter(clock());
  const mk = (id: string) =>
    sourceDef({ id, connector: 'arcgis', states: ['FL'], url: `${feed.base}/${id}/0`, interval_min: 5, options: {} });
  const count = async (sql: string) => (await p.db.all<{ n: number }>(`SELECT count(*)::INT AS n FROM ${sql}`))[0].n;
  const kinds = async () =>
    (await p.db.all<{ kind: string }>("SELECT kind FROM events WHERE kind LIKE 'feed_%' ORDER BY id")).map(
      (e) => e.kind,
    );

  beforeAll(async () => {
    await feed.start();
    feed.set('/a/0/query', layer(400));
    feed.set('/b/0/query', layer(300));
    p = await Pipeline.open({
      stateDir: path.join(tmp.dir, 'state'),
      outDir: path.join(tmp.dir, 'public'),
      sources: [mk('a'), mk('b')],
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

  it('stores the polls and statuses and writes only /live/sources', async () => {
    const before = new Map([...tree.files].map(([f, v]) => [f, v.entry.object]));
    const [polls, puts] = [await count('polls'), tree.puts];
    clock.advance(60_000);
    const s = await p.cycle({ all: true });
    expect(s).toMatchObject({ polled: 2, ok: 2, changed: 0, events: 0, customersOut: 700 });
    expect(s.publish.written).toBe(1);
    expect(tree.puts - puts).toBe(1); // no other document was even serialised to compare
    expect([...tree.files.keys()].sort()).toEqual([...before.keys()].sort());
    expect([...tree.files].filter(([f, v]) => v.entry.object !== before.get(f)).map(([f]) => f)).toEqual([
      'api/v1/live/sources.json',
    ]);
    expect(await count('polls')).toBe(polls + 2);
    const [st] = await p.db.all<{ last_success_at: string }>(
      "SELECT last_success_at FROM source_status WHERE source_id = 'a'",
    );
    expect(st.last_success_at).toBe(clock().toISOString());
  });

  it('evaluates again when a new timeline frame begins, with the same data', async () => {
    const frames = await count('state_frames');
    clock.set(new Date('2026-09-01T12:16:00Z'));
    const s = await p.cycle({ all: true });
    expect(s.changed).toBe(0);
    expect(await count('state_frames')).toBeGreaterThan(frames);
  });

  it('a stale feed that comes back with the data it had is evaluated: feed_recovered', async () => {
    feed.set('/b/0/query', { status: 500, body: 'down' });
    for (const at of ['12:21', '12:31', '12:41']) {
      clock.set(new Date(`2026-09-01T${at}:00Z`));
      await p.cycle({ all: true });
    }
    expect(await kinds()).toEqual(['feed_stale']);
    feed.set('/b/0/query', layer(300));
    clock.set(new Date('2026-09-01T12:42:00Z')); // the frame of the last evaluation
    const s = await p.cycle({ all: true });
    expect(s.changed).toBe(0);
    expect(await kinds()).toEqual(['feed_stale', 'feed_recovered']);
  });
});
