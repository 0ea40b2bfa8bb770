// Feeds of the event stream: RSS 2.0, Atom 1.0 and JSON Feed 1.1. Item links are absolute; each item links to a page a
// person can open. Titles and summaries carry upstream names (municipalities, utilities), so they are text, never
// markup (issue 24 part 3): Atom `type="text"`, RSS `<description>` HTML-escaped (RSS defines it as HTML), every XML
// text escaped by fast-xml-parser's builder and stripped of characters XML cannot hold. The `feed` package wrote
// upstream text as `type="html"` CDATA and let a control character make the whole feed invalid XML.
import { XMLBuilder } from 'fast-xml-parser';
import { type PublicEvent, sayTime } from '../contract/events.ts';
import { cleanText, noCleaning } from '../sources/clean-text.ts';

export interface FeedMeta {
  baseUrl: string;
  /** the feed's own URL without extension, e.g. https://host/feeds/events */
  selfBase: string;
  query: string;
  updated: string;
  simulated: boolean;
}

/** What the RSS and Atom answers guarantee (the OpenAPI document and docs/data-notice.md say it). */
export const FEED_NOTE =
  'Well-formed XML 1.0 whatever the utilities publish. Titles and summaries are plain text, never markup: Atom `type="text"`, RSS `<description>` HTML-escaped text (a municipality named `<b>` shows as `<b>`).';

const DESCRIPTION = 'Outages beginning, growing, improving and restored, by county, municipality and utility.';
const RIGHTS = 'Data as published by each utility; cite US Power Outage Data and link back.';

/** Text XML 1.0 can hold: stored text is already clean (quarantine); this holds for rows stored before it was. */
const text = (s: string): string => cleanText(s, { cap: 2_000, multiline: false }, noCleaning());
/** Text inside a field a reader renders as HTML (RSS description): shown as text, never as markup. */
const htmlEscaped = (s: string): string =>
  text(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const title = (m: FeedMeta) =>
  text(
    `US Power Outage Data — outage events${m.query ? ` (${decodeURIComponent(m.query.replace(/&/g, ', '))})` : ''}${m.simulated ? ' [SIMULATED]' : ''}`,
  );
/** An entry's title: marked [SIMULATED] in a simulated deployment, as the feed's own is (a reader shows entries alone). */
const entryTitle = (m: FeedMeta, e: PublicEvent) => text(m.simulated ? `[SIMULATED] ${e.title}` : e.title);
const guid = (m: FeedMeta, e: PublicEvent) => `tag:outage-data,2026:${new URL(m.baseUrl).host}:event:${e.id}`;
const summary = (e: PublicEvent) =>
  [
    e.title,
    e.threshold !== null ? `Opening threshold: ${e.threshold.toLocaleString('en-US')} customers.` : '',
    e.etr ? `Estimated restoration: ${sayTime(e.etr)}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
const suffix = (m: FeedMeta) => (m.query ? `?${m.query}` : '');
/** Items newest first, whichever order the page was read in. */
const newestFirst = (events: PublicEvent[]) => [...events].sort((a, b) => b.id - a.id);
/** The time of the newest event (a feed's `updated`). */
export const newestAt = (events: PublicEvent[]): string | undefined =>
  events.reduce<PublicEvent | undefined>((n, e) => (n && n.id > e.id ? n : e), undefined)?.at;

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  indentBy: '    ',
  suppressEmptyNode: true,
});
const xml = (doc: Record<string, unknown>): string => `<?xml version="1.0" encoding="utf-8"?>\n${builder.build(doc)}`;

export function rssFeed(events: PublicEvent[], m: FeedMeta): string {
  const q = suffix(m);
  const item = (e: PublicEvent) => ({
    title: entryTitle(m, e),
    link: `${m.baseUrl}${e.link}`,
    guid: { '@isPermaLink': 'false', '#text': guid(m, e) },
    pubDate: new Date(e.at).toUTCString(),
    description: htmlEscaped(summary(e)),
    category: e.kind,
  });
  const channel = {
    title: title(m),
    link: `${m.baseUrl}/api/v1/events${q}`,
    description: DESCRIPTION,
    lastBuildDate: new Date(m.updated).toUTCString(),
    docs: 'https://validator.w3.org/feed/docs/rss2.html',
    generator: 'outage-data',
    language: 'en',
    copyright: RIGHTS,
    'atom:link': { '@href': `${m.selfBase}.rss${q}`, '@rel': 'self', '@type': 'application/rss+xml' },
    item: newestFirst(events).map(item),
  };
  return xml({ rss: { '@version': '2.0', '@xmlns:atom': 'http://www.w3.org/2005/Atom', channel } });
}

export function atomFeed(events: PublicEvent[], m: FeedMeta): string {
  const q = suffix(m);
  const entry = (e: PublicEvent) => ({
    title: { '@type': 'text', '#text': entryTitle(m, e) },
    id: guid(m, e),
    link: { '@href': `${m.baseUrl}${e.link}` },
    updated: new Date(e.at).toISOString(),
    summary: { '@type': 'text', '#text': text(summary(e)) },
    category: { '@term': e.kind, '@label': e.kind },
  });
  const feed = {
    '@xmlns': 'http://www.w3.org/2005/Atom',
    id: `${m.selfBase}.atom${q}`,
    title: { '@type': 'text', '#text': title(m) },
    updated: new Date(m.updated).toISOString(),
    generator: 'outage-data',
    link: [
      { '@rel': 'alternate', '@href': `${m.baseUrl}/api/v1/events${q}` },
      { '@rel': 'self', '@href': `${m.selfBase}.atom${q}` },
    ],
    subtitle: DESCRIPTION,
    rights: RIGHTS,
    entry: newestFirst(events).map(entry),
  };
  return xml({ feed });
}

/** JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/): text in `content_text`, never `content_html`. */
export function jsonFeed(events: PublicEvent[], m: FeedMeta): Record<string, unknown> {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: title(m),
    home_page_url: `${m.baseUrl}/`,
    feed_url: `${m.selfBase}.json${suffix(m)}`,
    description: DESCRIPTION,
    language: 'en',
    authors: [{ name: 'US Power Outage Data', url: `${m.baseUrl}/` }],
    items: newestFirst(events).map((e) => ({
      id: guid(m, e),
      url: `${m.baseUrl}${e.link}`,
      title: entryTitle(m, e),
      content_text: text(summary(e)),
      date_published: e.at,
      tags: [e.kind, e.scope, ...e.states],
      _outage: e,
    })),
  };
}
