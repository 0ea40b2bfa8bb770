import { describe, expect, it } from 'vitest';
import {
  arrayView,
  pageEvents,
  type ChunkReader,
  type ChunkSummary,
  type ChunkView,
  type EventIndex,
} from './event-pages.ts';
import { decodeCursor, encodeCursor, parseEventQuery, type PublicEvent } from './events.ts';
import type { ApiError } from './errors.ts';

const KINDS = ['outage_began', 'outage_grew', 'outage_improving', 'outage_restored'] as const;

/** An in-memory stream that can grow while a client pages through it. */
class Stream implements ChunkReader {
  events: PublicEvent[] = [];
  firstId = 1;
  append(n: number): void {
    for (let i = 0; i < n; i++) {
      const id = this.events.length + 1;
      const fips = id % 3 === 0 ? '12086' : '12011';
      this.events.push({
        id,
        at: new Date(Date.UTC(2026, 8, 1) + id * 60_000).toISOString(),
        kind: KINDS[id % 4],
        scope: 'county',
        fips,
        state: 'FL',
        states: ['FL'],
        utility: 'U',
        area: null,
        source_id: null,
        outage_id: null,
        customers_out: id * 10,
        pct_out: null,
        threshold: 500,
        previous_customers_out: null,
        etr: null,
        previous_etr: null,
        county_name: null,
        title: `e${id}`,
        link: `/api/v1/live/counties/${fips}`,
      });
    }
  }
  index(): EventIndex {
    const byChunk = new Map<number, PublicEvent[]>();
    for (const e of this.events.filter((x) => x.id >= this.firstId))
      (
        byChunk.get(Math.floor((e.id - 1) / 10)) ??
        byChunk.set(Math.floor((e.id - 1) / 10), []).get(Math.floor((e.id - 1) / 10))!
      ).push(e);
    const chunks: ChunkSummary[] = [...byChunk.entries()].map(([n, evs]) => ({
      n,
      min_id: evs[0].id,
      max_id: evs.at(-1)!.id,
      first_at: evs[0].at,
      last_at: evs.at(-1)!.at,
      kinds: [...new Set(evs.map((e) => e.kind))],
      states: ['FL'],
      fips: [...new Set(evs.map((e) => e.fips!))],
      utilities: ['U'],
      max_customers: Math.max(...evs.map((e) => e.customers_out!)),
    }));
    return { max_id: this.events.length, first_id: chunks[0]?.min_id ?? 0, chunks, utilities: ['U'] };
  }
  chunk(n: number): ChunkView {
    // A chunk read may already contain events appended after the index was read.
    return arrayView(this.events.filter((e) => Math.floor((e.id - 1) / 10) === n));
  }
}

const q = (s: string, utilities = new Set(['U'])) =>
  parseEventQuery(new URLSearchParams(s), { defaultLimit: 7, maxLimit: 50, utilities });

describe('event pages', () => {
  it('returns the newest matching events newest first, pages to older ones, and polls newer ones from latest_cursor', () => {
    const s = new Stream();
    s.append(45);
    const latest = pageEvents(s, q('limit=5'));
    expect(latest.order).toBe('newest_first');
    expect(latest.events.map((e) => e.id)).toEqual([45, 44, 43, 42, 41]);
    expect(latest.has_more).toBe(true); // 40 older events are retained
    // Walking next_cursor reads every older event once, newest first, though events arrive meanwhile.
    const seen = latest.events.map((e) => e.id);
    let page = latest;
    while (page.has_more) {
      s.append(2);
      page = pageEvents(s, q(`after=${page.next_cursor}&limit=5`));
      expect(page.order).toBe('newest_first');
      seen.push(...page.events.map((e) => e.id));
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => 45 - i));
    expect(pageEvents(s, q(`after=${page.next_cursor}`)).events).toEqual([]);
    // latest_cursor: what was published after the first page, oldest first.
    const next = pageEvents(s, q(`after=${latest.latest_cursor}&limit=50`));
    expect(next.order).toBe('oldest_first');
    expect(next.events.map((e) => e.id)).toEqual(Array.from({ length: s.events.length - 45 }, (_, i) => 46 + i));
    expect(next.has_more).toBe(false);
  });

  it('says has_more only when an older match exists, also under filters', () => {
    const s = new Stream();
    s.append(30);
    const fips = s.events.filter((e) => e.fips === '12086').map((e) => e.id); // every third id
    const exact = pageEvents(s, q(`fips=12086&limit=${fips.length}`));
    expect(exact.events.map((e) => e.id)).toEqual([...fips].reverse());
    expect(exact.has_more).toBe(false);
    const short = pageEvents(s, q(`fips=12086&limit=${fips.length - 1}`));
    expect(short.has_more).toBe(true);
    const rest = pageEvents(s, q(`fips=12086&after=${short.next_cursor}`));
    expect(rest.events.map((e) => e.id)).toEqual([fips[0]]);
    expect(rest.has_more).toBe(false);
  });

  it('delivers every event exactly once, in order, to a client following cursors while events arrive', () => {
    const s = new Stream();
    s.append(5);
    const seen: number[] = [];
    let cursor = pageEvents(s, q('limit=1')).first_cursor;
    for (let round = 0; round < 60; round++) {
      if (round % 3 === 0) s.append(round % 7); // appends between and "during" reads
      const page = pageEvents(s, q(`after=${cursor}&limit=4`));
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor;
    }
    let last = pageEvents(s, q(`after=${cursor}&limit=50`));
    while (last.events.length) {
      seen.push(...last.events.map((e) => e.id));
      last = pageEvents(s, q(`after=${last.next_cursor}&limit=50`));
    }
    expect(seen).toEqual(s.events.map((e) => e.id));
  });

  it('filters, reading only chunks that can match, and echoes the filters', () => {
    const s = new Stream();
    s.append(100);
    const page = pageEvents(s, q('fips=12086&kind=outage_grew,outage_restored&min_customers=500&limit=50'));
    expect(
      page.events.every(
        (e) => e.fips === '12086' && ['outage_grew', 'outage_restored'].includes(e.kind) && e.customers_out! >= 500,
      ),
    ).toBe(true);
    expect(page.events.length).toBeGreaterThan(0);
    expect(page.filters).toEqual({ fips: '12086', kind: ['outage_grew', 'outage_restored'], min_customers: 500 });
  });

  it('rejects bad input with the parameter named', () => {
    const bad = (s: string) => {
      try {
        q(s);
        return null;
      } catch (e) {
        return (e as ApiError).body;
      }
    };
    expect(bad('kind=outage_exploded')).toMatchObject({ status: 400, param: 'kind' });
    expect(bad('min_customers=lots')).toMatchObject({ status: 400, param: 'min_customers' });
    expect(bad('limit=51')).toMatchObject({ status: 400, param: 'limit' });
    expect(bad('limit=0')).toMatchObject({ status: 400, param: 'limit' });
    expect(bad('since=yesterday')).toMatchObject({ status: 400, param: 'since' });
    expect(bad('utility=Nope')).toMatchObject({ status: 400, param: 'utility' });
    expect(bad('after=not-a-cursor')).toMatchObject({ status: 400, code: 'invalid_cursor' });
    expect(bad('fips=123')).toMatchObject({ status: 400, param: 'fips' });
    expect(bad('state=XX')).toMatchObject({ status: 400, param: 'state' });
  });

  it('answers 410 for a cursor older than the retained events and 400 for one from the future', () => {
    const s = new Stream();
    s.append(40);
    s.firstId = 21;
    const err = (after: number) => {
      try {
        pageEvents(s, q(`after=${encodeCursor(after)}`));
        return null;
      } catch (e) {
        return (e as ApiError).body;
      }
    };
    expect(err(5)).toMatchObject({ status: 410, code: 'cursor_expired' });
    expect(err(20)).toBeNull();
    expect(err(41)).toMatchObject({ status: 400, code: 'invalid_cursor' });
    expect(decodeCursor(pageEvents(s, q('')).first_cursor)).toEqual({ id: 20, order: 'oldest_first' });
    // Towards older events, a cursor below the retained ones is the end of the stream, not an error.
    const older = (before: number) => pageEvents(s, q(`after=${encodeCursor(before, 'newest_first')}`));
    expect(older(5)).toMatchObject({ events: [], has_more: false });
    expect(older(23).events.map((e) => e.id)).toEqual([22, 21]);
    expect(older(41).events[0].id).toBe(40);
    expect(() => older(42)).toThrow(/past the newest event/);
  });
});
