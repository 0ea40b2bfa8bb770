// Times in words with their zone (issue 38 part 3): the site's one rule (site/src/map/browser/times.js), and the event
// titles and feed entries that say an estimated restoration with it rather than as a raw ISO string.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { toPublic } from '../contract/events.ts';
import { atomFeed, jsonFeed, rssFeed, type FeedMeta } from './feeds.ts';
// @ts-expect-error: a plain browser module (no types)
import { clockText, localTimeText, shortTimeText, timeText } from '../../../site/src/map/browser/times.js';

const meta: FeedMeta = {
  baseUrl: 'https://outage.example',
  selfBase: 'https://outage.example/feeds/events',
  query: '',
  updated: '2026-12-03T01:00:00Z',
  simulated: false,
};
const etrChanged = toPublic(
  {
    id: 7,
    at: '2026-12-03T01:00:00.000Z',
    kind: 'etr_changed',
    scope: 'county',
    fips: '12086',
    state: 'FL',
    utility: null,
    area: null,
    source_id: 'fpl',
    outage_id: 'o1',
    customers_out: 1200,
    pct_out: 0.1,
    threshold: 100,
    previous: null,
    etr: '2026-12-03T02:00:00.000Z',
    previous_etr: null,
  },
  () => 'Miami-Dade',
);
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe('the time rule', () => {
  it('says a date, a 24-hour clock and UTC; a short form inside a day or a week; the clock alone for "Updated"', () => {
    expect(timeText('2026-12-03T02:00:00.000Z')).toBe('Dec 3, 2026, 02:00 UTC');
    expect(timeText(Date.UTC(2026, 8, 1, 23, 45))).toBe('Sep 1, 2026, 23:45 UTC');
    expect(shortTimeText('2026-12-03T14:05:00Z')).toBe('Dec 3, 14:05 UTC');
    expect(clockText('2026-12-03T22:21:02Z')).toBe('22:21:02 UTC');
  });

  it("gives the reader's own clock with its zone (the tooltip), and leaves text no clock can read as it is", () => {
    expect(localTimeText('2026-12-03T02:00:00Z')).toMatch(/^Dec \d, 2026, \d{1,2}:\d{2} [AP]M \S+$/);
    expect(timeText('tomorrow evening')).toBe('tomorrow evening');
  });
});

describe('feed entries', () => {
  it('say an estimated restoration in words with its zone, in the title and the summary of all three feeds', () => {
    expect(etrChanged.title).toBe(
      'Restoration estimate changed: Miami-Dade, FL — 1,200 customers out — now Dec 3, 2026, 02:00 UTC',
    );
    const parse = (xml: string) => new XMLParser().parse(xml);
    const rss = parse(rssFeed([etrChanged], meta)).rss.channel.item;
    const atom = parse(atomFeed([etrChanged], meta)).feed.entry;
    const json = (jsonFeed([etrChanged], meta).items as Array<{ title: string; content_text: string }>)[0];
    for (const text of [rss.title, rss.description, atom.title, atom.summary, json.title, json.content_text]) {
      expect(text).toContain('Dec 3, 2026, 02:00 UTC');
      expect(text).not.toMatch(ISO);
    }
    expect(json.content_text).toContain('Estimated restoration: Dec 3, 2026, 02:00 UTC.');
  });
});
