// Feeds of the event stream: RSS 2.0 and Atom 1.0 through the `feed` package, JSON Feed 1.1 written to its spec
// (the package only writes 1.0). Item links are absolute; each item links to a page a person can open.
import { Feed } from 'feed';
import type { PublicEvent } from '../contract/events.ts';

export interface FeedMeta {
  baseUrl: string;
  /** the feed's own URL without extension, e.g. https://host/feeds/events */
  selfBase: string;
  query: string;
  updated: string;
  simulated: boolean;
}

const title = (m: FeedMeta) =>
  `US Power Outage Data — outage events${m.query ? ` (${decodeURIComponent(m.query.replace(/&/g, ', '))})` : ''}${m.simulated ? ' [SIMULATED]' : ''}`;
const guid = (m: FeedMeta, e: PublicEvent) => `tag:outage-data,2026:${new URL(m.baseUrl).host}:event:${e.id}`;
const summary = (e: PublicEvent) =>
  [
    e.title,
    e.threshold !== null ? `Opening threshold: ${e.threshold.toLocaleString('en-US')} customers.` : '',
    e.etr ? `Estimated restoration: ${e.etr}.` : '',
  ]
    .filter(Boolean)
    .join(' ');

function feedOf(events: PublicEvent[], m: FeedMeta): Feed {
  const q = m.query ? `?${m.query}` : '';
  const feed = new Feed({
    title: title(m),
    description: 'Outages beginning, growing, improving and restored, by county, municipality and utility.',
    id: `${m.selfBase}.atom${q}`,
    link: `${m.baseUrl}/api/v1/events${q}`,
    language: 'en',
    updated: new Date(m.updated),
    generator: 'outage-data',
    copyright: 'Data as published by each utility; cite US Power Outage Data and link back.',
    feedLinks: { rss: `${m.selfBase}.rss${q}`, atom: `${m.selfBase}.atom${q}`, json: `${m.selfBase}.json${q}` },
  });
  for (const e of [...events].reverse()) {
    feed.addItem({
      title: e.title,
      id: guid(m, e),
      guid: guid(m, e),
      link: `${m.baseUrl}${e.link}`,
      description: summary(e),
      date: new Date(e.at),
      category: [{ name: e.kind }],
    });
  }
  return feed;
}

export const rssFeed = (events: PublicEvent[], m: FeedMeta): string => feedOf(events, m).rss2();
export const atomFeed = (events: PublicEvent[], m: FeedMeta): string => feedOf(events, m).atom1();

/** JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). */
export function jsonFeed(events: PublicEvent[], m: FeedMeta): Record<string, unknown> {
  const q = m.query ? `?${m.query}` : '';
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: title(m),
    home_page_url: `${m.baseUrl}/`,
    feed_url: `${m.selfBase}.json${q}`,
    description: 'Outages beginning, growing, improving and restored, by county, municipality and utility.',
    language: 'en',
    authors: [{ name: 'US Power Outage Data', url: `${m.baseUrl}/` }],
    items: [...events].reverse().map((e) => ({
      id: guid(m, e),
      url: `${m.baseUrl}${e.link}`,
      title: e.title,
      content_text: summary(e),
      date_published: e.at,
      tags: [e.kind, e.scope, ...e.states],
      _outage: e,
    })),
  };
}
