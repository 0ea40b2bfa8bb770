// Browser: the live data behind the map (/live/map, /live/summary, /live/sources) and what each county shows.
// A county absent from /live/map has nothing out when a fresh feed that places outages in counties lists its state
// (coverage `county`, or `outage_only`: located outages without utility totals); else it shows "no feed".

const NUMBER = new Intl.NumberFormat('en-US');
export const formatCount = (n) => NUMBER.format(n);

/** The refresh interval the API asks for: max-age of the map's Cache-Control (spec: live cache class), ≥ 10 s. */
export function refreshSeconds(cacheControl) {
  const m = /max-age=(\d+)/.exec(cacheControl ?? '');
  return m ? Math.max(10, Number(m[1])) : 60;
}

async function getData(url) {
  // no-cache: revalidate with the ETag, so a refresh never reuses a cycle the browser cached.
  const res = await fetch(url, { cache: 'no-cache', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  return { data: (await res.json()).data, cacheControl: res.headers.get('Cache-Control') };
}

/** One consistent read of the three live documents. */
export async function fetchLive(paths) {
  const [map, summary, sources] = await Promise.all([
    getData(paths.map),
    getData(paths.summary),
    getData(paths.sources),
  ]);
  return { map: map.data, summary: summary.data, sources: sources.data, refreshS: refreshSeconds(map.cacheControl) };
}

/** Coverage classes whose outages land in counties; `utility_total` feeds give one utility-wide number only. */
const PLACES_COUNTIES = new Set(['county', 'outage_only']);
/** What a feed of each coverage class gives, in words (a source's `coverage`). */
export const COVERAGE_WORDS = {
  county: 'counts by county',
  utility_total: 'a utility-wide total',
  outage_only: 'located outages, no totals',
};

/** Per state code: how many feeds list it, how many are fresh, and how many place outages in counties. */
export function stateFeeds(sources) {
  const byState = new Map();
  for (const s of sources?.sources ?? []) {
    for (const code of s.states ?? []) {
      const e = byState.get(code) ?? { total: 0, fresh: 0, placing: 0, placingFresh: 0, updatedAt: null };
      e.total += 1;
      if (s.freshness === 'fresh') e.fresh += 1;
      if (PLACES_COUNTIES.has(s.coverage)) {
        e.placing += 1;
        if (s.freshness === 'fresh') e.placingFresh += 1;
      }
      if (s.updated_at && (!e.updatedAt || s.updated_at > e.updatedAt)) e.updatedAt = s.updated_at;
      byState.set(code, e);
    }
  }
  return byState;
}

/** Why a county absent from the map cannot be called "nothing out", or null when it can. */
export function noFeedReason(feeds) {
  if (!feeds) return 'no source polls this state';
  if (feeds.placing === 0) return 'the feeds here give only utility-wide totals';
  if (feeds.placingFresh === 0) return 'the feeds here are stale';
  return null;
}

/** Legend and tooltip text of a band, from the thresholds the API uses (spec: Limits — share ramp). */
export function bandLabel(band, thresholds) {
  if (band < 0) return 'no trusted customer count';
  if (band === 0) return `under ${thresholds[0]} %`;
  if (band >= thresholds.length) return `${thresholds[thresholds.length - 1]} % or more`;
  return `${thresholds[band - 1]}–${thresholds[band]} %`;
}

/** A magnitude (0–5) in words, from the headcount ramp the API uses (spec: magnitude): "3 of 5: 10,000–49,999 out". */
export function magnitudeLabel(m, thresholds) {
  const top = thresholds.length;
  const range =
    m <= 0
      ? `under ${formatCount(thresholds[0])}`
      : m >= top
        ? `${formatCount(thresholds[top - 1])} or more`
        : `${formatCount(thresholds[m - 1])}–${formatCount(thresholds[m] - 1)}`;
  return `${m} of ${top}: ${range} customers out`;
}

export const PCT_NULL_REASON = 'no trusted customer count: the known count is missing or smaller than the outage';

/**
 * What one county shows. kind: out (band 0–5), untrusted (band −1), quiet (nothing out) or nofeed.
 * @param {[number, number|null, number, number, number] | undefined} entry its /live/map array, if any
 */
export function countyStatus(entry, feeds) {
  if (entry) {
    const [customersOut, pctOut, , band] = entry;
    if (band < 0 || pctOut === null)
      return { kind: 'untrusted', fill: 'fill-untrusted', customersOut, pctOut: null, band: -1 };
    return { kind: 'out', fill: `fill-b${Math.min(5, band)}`, customersOut, pctOut, band };
  }
  const reason = noFeedReason(feeds);
  return reason ? { kind: 'nofeed', fill: 'fill-nofeed', reason } : { kind: 'quiet', fill: 'fill-none' };
}

/** The facts a person reads about one county: its title and label/value rows (tooltip, aria-label, table). */
export function describeCounty(shape, status, feeds, thresholds) {
  const title = `${shape.name}, ${shape.state}`;
  const rows = [];
  if (status.kind === 'out' || status.kind === 'untrusted') {
    rows.push(['Customers out', formatCount(status.customersOut)]);
    rows.push(['Share out', status.pctOut === null ? `— (${PCT_NULL_REASON})` : `${status.pctOut} %`]);
    rows.push([
      'Band',
      status.band < 0
        ? `untrusted (${bandLabel(-1, thresholds)})`
        : `${status.band} (${bandLabel(status.band, thresholds)})`,
    ]);
  } else if (status.kind === 'quiet') {
    rows.push(['Customers out', 'nothing reported out']);
  } else {
    rows.push(['No feed', status.reason]);
  }
  if (feeds) rows.push(['Feeds', `${feeds.fresh} of ${feeds.total} fresh in ${shape.state}`]);
  return { title, rows };
}
