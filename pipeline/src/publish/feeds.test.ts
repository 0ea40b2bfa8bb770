// feeds.ts over hostile upstream names (issue 24): RSS and Atom stay well-formed XML whatever a municipality is called,
// and carry its name as text (Atom type="text", RSS description HTML-escaped), never as markup a reader renders.
import { describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { toPublic, type PublicEvent } from '../contract/events.ts';
import { atomFeed, jsonFeed, rssFeed, type FeedMeta } from './feeds.ts';
import { xmlProblem } from '../../test/xml-check.ts';

const MARKUP = '<img src=x onerror=alert(1)>';
const NAMES = [
  `Harris\u0000burg\u0007 \u001b]0;pwned\u0007\u001b[2J`,
  `Derry ${MARKUP} ]]> & <![CDATA[x]]>`,
  'Swatara\u202etxt.exe\u2066 \ufffe\uffff\ufdd0 \ud800 \u0085\u009b',
  'Z'.repeat(100_000),
];
const meta: FeedMeta = {
  baseUrl: 'https://outage.example',
  selfBase: 'https://outage.example/feeds/events',
  query: 'state=PA',
  updated: '2026-10-10T12:00:00Z',
  simulated: false,
};
const events: PublicEvent[] = NAMES.map((area, i) =>
  toPublic(
    {
      id: i + 1,
      at: '2026-10-10T12:00:00Z',
      kind: 'outage_began',
      scope: 'municipality',
      fips: '42043',
      state: 'PA',
      utility: `PPL\u0007 ${MARKUP}`,
      area,
      source_id: 'ppl',
      outage_id: null,
      customers_out: 500,
      pct_out: null,
      threshold: 50,
      previous: null,
      etr: null,
      previous_etr: null,
    },
    () => 'Dauphin',
  ),
);
const parse = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' }).parse(xml);
/** Every element name in a parsed document. */
const elements = (v: unknown, out = new Set<string>()): Set<string> => {
  if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (!k.startsWith('@') && k !== '#text') out.add(k);
      elements(x, out);
    }
  return out;
};

describe('feeds over hostile names', () => {
  it('RSS and Atom are well-formed XML that real parsers read back', async () => {
    for (const xml of [rssFeed(events, meta), atomFeed(events, meta)]) {
      expect(xmlProblem(xml)).toBeNull();
      const feed = await new Parser().parseString(xml);
      expect(feed.items).toHaveLength(NAMES.length);
    }
  });

  it('Atom carries titles and summaries as type="text", the markup as text', () => {
    const xml = atomFeed(events, meta);
    expect(xml).not.toMatch(/type="html"|<!\[CDATA\[/);
    const entries = parse(xml).feed.entry as Array<{ title: { '@type': string; '#text': string } }>;
    expect(elements(parse(xml))).not.toContain('img');
    const derry = entries.find((e) => e.title['#text'].includes('Derry'))!;
    expect(derry.title).toEqual({
      '@type': 'text',
      '#text': `Outage began: Derry ${MARKUP} ]]> & <![CDATA[x]]> (Dauphin, PA; PPL ${MARKUP}) — 500 customers out`,
    });
  });

  it('RSS descriptions are HTML-escaped text: a reader rendering them shows the markup as text', () => {
    const items = parse(rssFeed(events, meta)).rss.channel.item as Array<{ title: string; description: string }>;
    const derry = items.find((i) => i.title.includes('Derry'))!;
    expect(derry.description).toContain('Derry &lt;img src=x onerror=alert(1)&gt; ]]&gt; &amp; &lt;![CDATA[x]]&gt;');
    expect(items.every((i) => !i.description.includes('<'))).toBe(true);
  });

  it('no control, bidirectional override, non-character or lone surrogate reaches any feed; names stay capped', () => {
    const unwanted =
      // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufdd0-\ufdef\ufffe\uffff]/;
    // JSON Feed's own text (its `_outage` is the event as /api/v1/events has it: stored text, cleaned at ingest)
    const items = jsonFeed(events, meta).items as Array<{ title: string; content_text: string }>;
    const json = items.map((i) => i.title + i.content_text).join('\n');
    for (const text of [rssFeed(events, meta), atomFeed(events, meta), json]) {
      expect(text).not.toMatch(unwanted);
      expect(text).not.toMatch(/\p{Cs}/u); // a lone surrogate (a pair is one code point)
    }
    expect(Math.max(...items.map((i) => i.title.length))).toBeLessThanOrEqual(2_000);
  });
});

describe('feeds of a simulated deployment', () => {
  /** Every entry's title in the three feeds, as a reader parses them. */
  const entryTitles = (m: FeedMeta) => [
    ...(parse(rssFeed(events, m)).rss.channel.item as Array<{ title: string }>).map((i) => i.title),
    ...(parse(atomFeed(events, m)).feed.entry as Array<{ title: { '#text': string } }>).map((e) => e.title['#text']),
    ...(jsonFeed(events, m).items as Array<{ title: string }>).map((i) => i.title),
  ];

  it('mark every entry title [SIMULATED] (issue 38 part 2), and a real deployment’s none', () => {
    const simulated = entryTitles({ ...meta, simulated: true });
    expect(simulated).toHaveLength(events.length * 3);
    for (const t of simulated) expect(t).toMatch(/^\[SIMULATED\] Outage began: /);
    const real = entryTitles(meta);
    expect(real).toHaveLength(events.length * 3);
    for (const t of real) expect(t).not.toContain('SIMULATED');
  });
});
