// Incident events (issue 41 part 1): one outage as its feed lists it opens, grows, has its ETR moved and its crew
// status changed, holds while its feed is failing or stale, and is restored when it leaves the feed; an answer without
// `scope` keeps today's content, `scope=incident` gives them. The feed's answers are the test's own; the events
// expected are derived here from those answers (new ids, ETR moves, crew changes, vanished ids).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { endpoint } from '../src/contract/catalogue.ts';
import { ColumnChunk, type EventColumns } from '../src/contract/event-columns.ts';
import { pageEvents, type EventIndex } from '../src/contract/event-pages.ts';
import { parseEventQuery, type PublicEvent } from '../src/contract/events.ts';
import { fileFor } from '../src/contract/urls.ts';
import { SourceError } from '../src/errors.ts';
import { Pipeline } from '../src/pipeline.ts';
import { chunkFile, INDEX_FILE } from '../src/publish/events.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import type { Connector } from '../src/sources/connector.ts';
import type { Incident, Snapshot } from '../src/sources/snapshot.ts';
import { INCIDENT_EVENT_MIN } from '../src/state/lifecycle.ts';
import { tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

type Listed = Pick<Incident, 'id' | 'customers_out' | 'etr' | 'crew_status'>;
const T0 = Date.parse('2026-09-01T12:00:00Z');
const at = (min: number) => new Date(T0 + min * 60_000).toISOString();
/** The feed's answer at each cycle (5 minutes apart): null is a failed poll. */
const ANSWERS: Array<Listed[] | null> = [
  [
    { id: 'A', customers_out: 300, etr: at(120), crew_status: 'Assessing' },
    { id: 'B', customers_out: 40, etr: null, crew_status: null },
  ],
  [
    { id: 'A', customers_out: 300, etr: at(240), crew_status: 'Crew assigned' },
    { id: 'B', customers_out: 40, etr: null, crew_status: null },
  ],
  [{ id: 'A', customers_out: 800, etr: at(240), crew_status: 'Crew assigned' }],
  null,
  null,
  null,
  null,
  null,
  [],
];

const snapshot = (list: Listed[]): Snapshot => ({
  ...{ utility: 'Test Power', unit: 'customers', customers_served: null, planned_out: null },
  customers_out: list.reduce((s, i) => s + i.customers_out, 0),
  counties: list.length
    ? [{ fips: '12095', customers_out: list.reduce((s, i) => s + i.customers_out, 0), customers_served: null }]
    : [],
  areas: [],
  incidents: list.map((i) => ({
    ...i,
    ...{
      fips: '12095',
      cause: 'Weather',
      started_at: at(-30),
      lat: 28.54,
      lon: -81.38,
      city: 'Orlando',
      planned: false,
    },
  })),
  ...{ unmatched: [], unreadable: [], notice: null, basis: 'county' },
});

/** The incident events the answers call for, by the documented rules (threshold, 1.5× growth, 60-minute ETR moves). */
function expected(): Array<Partial<PublicEvent>> {
  const out: Array<Partial<PublicEvent>> = [];
  const open = new Map<string, { base: number; peak: number; etr: string | null; crew: string | null }>();
  let last: Listed[] = [];
  ANSWERS.forEach((answer, n) => {
    if (answer === null) return;
    for (const i of answer) {
      const o = open.get(i.id);
      if (!o) {
        if (i.customers_out < INCIDENT_EVENT_MIN) continue;
        out.push({ kind: 'outage_began', incident_id: i.id, customers_out: i.customers_out, at: at(5 * n) });
        open.set(i.id, { base: i.customers_out, peak: i.customers_out, etr: i.etr, crew: i.crew_status });
        continue;
      }
      o.peak = Math.max(o.peak, i.customers_out);
      if (i.customers_out >= 1.5 * o.base && i.customers_out - o.base >= INCIDENT_EVENT_MIN) {
        out.push({ kind: 'outage_grew', incident_id: i.id, previous_customers_out: o.base, at: at(5 * n) });
        o.base = i.customers_out;
      }
      if (i.etr && o.etr && Math.abs(Date.parse(i.etr) - Date.parse(o.etr)) >= 3_600_000) {
        const slip = (Date.parse(i.etr) - Date.parse(o.etr)) / 60_000;
        out.push({ kind: 'etr_changed', incident_id: i.id, etr: i.etr, previous_etr: o.etr, etr_slip_min: slip });
        o.etr = i.etr;
      }
      if (i.crew_status && i.crew_status !== o.crew) {
        out.push({ kind: 'crew_changed', incident_id: i.id, crew_status: i.crew_status, previous_crew_status: o.crew });
        o.crew = i.crew_status;
      }
    }
    for (const i of last)
      if (open.has(i.id) && !answer.some((x) => x.id === i.id)) {
        out.push({
          kind: 'outage_restored',
          incident_id: i.id,
          previous_customers_out: open.get(i.id)!.peak,
          at: at(5 * n),
        });
        open.delete(i.id);
      }
    last = answer;
  });
  return out;
}

describe('incident events', () => {
  const tmp = tempDir('incident-events');
  const clock = manualClock(new Date(T0));
  const tree = new MemoryTreeWriter(clock());
  let p: Pipeline;
  let cycle = 0;
  const connector: Connector = {
    fetch: async () => {
      const a = ANSWERS[cycle];
      if (a === null) throw new SourceError('network', 'the test feed is down');
      return a;
    },
    normalize: (raw) => snapshot(raw as Listed[]),
  };
  const read = <T>(rel: string): T => JSON.parse(tree.files.get(rel)!.body.toString('utf8')).data as T;
  /** The stream as the function layer reads it: the published index and chunk files. */
  const page = (query: string) => {
    const reader = {
      index: () => read<EventIndex>(INDEX_FILE),
      chunk: (n: number) => new ColumnChunk(read<{ columns: EventColumns }>(chunkFile(n)).columns, () => 'Orange'),
    };
    const q = parseEventQuery(new URLSearchParams(query), { defaultLimit: 500, maxLimit: 500, utilities: new Set() });
    return pageEvents(reader, q).events.reverse(); // oldest first
  };

  beforeAll(async () => {
    p = await Pipeline.open({
      stateDir: path.join(tmp.dir, 'state'),
      outDir: path.join(tmp.dir, 'public'),
      sources: [sourceDef({ id: 'tp', utility: 'Test Power', connector: 'arcgis', interval_min: 5 })],
      clock,
      simulated: false,
      connectors: () => connector,
      writer: (now) => Object.assign(tree, { now }),
    });
    for (cycle = 0; cycle < ANSWERS.length; cycle++) {
      clock.set(new Date(T0 + cycle * 5 * 60_000));
      await p.cycle({ all: true });
    }
  });
  afterAll(async () => {
    await p?.close();
    tmp.remove();
  });

  it('are the events the answers call for, each with the incident, utility, county, cause and ETR', () => {
    const got = page('scope=incident');
    expect(got.map((e) => e.scope)).toEqual(got.map(() => 'incident'));
    const want = expected();
    expect(want.map((e) => e.kind)).toEqual([
      'outage_began',
      'etr_changed',
      'crew_changed',
      'outage_grew',
      'outage_restored',
    ]);
    expect(got).toHaveLength(want.length);
    got.forEach((e, i) => expect(e).toMatchObject(want[i]));
    expect(got[0]).toMatchObject({ utility: 'Test Power', fips: '12095', cause: 'Weather', source_id: 'tp' });
    expect(got[0].title).toBe('Outage began: Test Power outage A (Orange, FL) — 300 customers out');
  });

  it('hold the incident while its feed fails and goes stale; it is restored once the feed answers without it', () => {
    const feed = page('kind=feed_stale,feed_recovered');
    expect(feed.map((e) => e.kind)).toEqual(['feed_stale', 'feed_recovered']);
    const restored = page('scope=incident&kind=outage_restored')[0];
    expect(restored.at).toBe(feed[1].at);
    expect(restored.at > feed[0].at).toBe(true);
  });

  it('stay out of every answer without `scope`: the prebuilt page, its feeds and the filtered answers', () => {
    const latest = read<{ events: PublicEvent[] }>(fileFor(endpoint('events'), {}, 'json')).events;
    expect(latest.length).toBeGreaterThan(0); // county, utility and feed events
    expect(latest.filter((e) => e.scope === 'incident')).toEqual([]);
    expect(page('').filter((e) => e.scope === 'incident')).toEqual([]);
    expect(page('fips=12095').every((e) => e.scope === 'county')).toBe(true);
    const rss = tree.files.get(fileFor(endpoint('feeds.rss'), {}, 'rss'))!.body.toString('utf8');
    expect(rss).not.toMatch(/outage A/);
    expect(page('scope=county,incident').some((e) => e.scope === 'incident')).toBe(true);
  });

  it('refuses an unknown scope with the one error shape', () => {
    let err: unknown = null;
    try {
      page('scope=planet');
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      body: {
        status: 400,
        code: 'invalid_parameter',
        param: 'scope',
        allowed: ['county', 'municipality', 'utility', 'incident'],
      },
    });
  });
});
