// Events of a utility serving several states carry the states where its customers are out; filters match any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { EVENT_SELECT, type EventRow } from '../src/state/events.ts';
import { publicEvent } from '../src/contract/events.ts';
import { matches } from '../src/contract/events.ts';
import { ColumnChunk, toColumns } from '../src/contract/event-columns.ts';
import { ScriptedFeed, tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const WAKE_NC = { x: -78.64, y: 35.78 };
const HENRICO_VA = { x: -77.4, y: 37.6 };
const pts = (...p: Array<[string, { x: number; y: number }, number]>) => ({
  features: p.map(([id, g, n]) => ({ attributes: { OUTAGE_ID: id, EST_CUSTOMERS: n }, geometry: g })),
});

const feed = new ScriptedFeed();
const tmp = tempDir('multistate');
const clock = manualClock(new Date('2026-09-01T00:00:00Z'));
let rows: EventRow[] = [];

beforeAll(async () => {
  await feed.start();
  const source = sourceDef({
    id: 'dom',
    utility: 'Two-State Power',
    connector: 'arcgis',
    states: ['VA', 'NC'],
    url: `${feed.base}/l/0`,
    customers: 100_000,
  });
  const p = await Pipeline.open({
    stateDir: path.join(tmp.dir, 'state'),
    outDir: path.join(tmp.dir, 'public'),
    sources: [source],
    clock,
    simulated: false,
    http: LOOPBACK_HTTP,
  });
  try {
    feed.set('/l/0/query', pts(['a', WAKE_NC, 4000]));
    await p.cycle({ all: true });
    clock.advance(10 * 60_000);
    feed.set('/l/0/query', pts(['a', WAKE_NC, 9000], ['b', HENRICO_VA, 3000]));
    await p.cycle({ all: true });
    rows = await p.db.all<EventRow>(`${EVENT_SELECT} WHERE scope = 'utility' ORDER BY id`);
  } finally {
    await p.close();
  }
});
afterAll(async () => {
  await feed.stop();
  tmp.remove();
});

describe('a VA;NC utility', () => {
  it('stamps its outage events with the states where customers are out, most first', () => {
    expect(rows.map((r) => [r.kind, r.state])).toEqual([
      ['outage_began', 'NC'],
      ['outage_grew', 'NC;VA'],
      ['major_event', 'NC;VA'],
    ]);
    const grew = publicEvent(rows[1]);
    expect(grew.state).toBe('NC');
    expect(grew.states).toEqual(['NC', 'VA']);
    expect(grew.title).toMatch(/Two-State Power \(NC, VA\)/);
  });
  it('is found by ?state=NC and ?state=VA, in both the plain and the column filters', () => {
    expect(rows.length).toBeGreaterThan(0);
    const chunk = new ColumnChunk(toColumns(rows), () => undefined);
    for (const [state, want] of [
      ['NC', 3],
      ['VA', 2],
      ['FL', 0],
    ] as const) {
      expect(rows.filter((r) => matches(publicEvent(r), { state })).length, state).toBe(want);
      expect(rows.filter((_, i) => chunk.match(i, { state })).length, state).toBe(want);
    }
  });
});
