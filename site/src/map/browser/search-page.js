// Browser: the search page (markup: site/src/site/search-page.ts). Looks `?q=` up in /api/v1/places (the counties
// table with the towns or the ZIP codes) and goes on to the county page when the query means one county, else lists
// the counties to choose from. Every text from the data is inserted as text.
import { $, config, fill, getJson, h, setStatus } from './site.js';
import { parseQuery, search } from './place-search.js';

const cfg = config();
const query = new URLSearchParams(location.search).get('q') ?? '';
for (const id of ['search-q', 'site-search-q']) if ($(id)) $(id).value = query;

const percent = (share) => `${Math.round(share * 1000) / 10} %`;
const shareText = (r) => (r.share === null ? 'share not known' : `${percent(r.share)} of its population`);

/** One result: a link to the county page, and how the query leads there. */
function item(r) {
  const link = h('a', { href: fill(cfg.site.county, { fips: r.fips }) }, `${r.county}, ${r.state}`);
  if (r.kind === 'county') return h('li', {}, link, ' — county');
  if (r.kind === 'zip') return h('li', {}, link, ` — ${shareText(r)}`);
  const part = r.share === null || r.share >= 0.9995 ? '' : ` (${shareText(r)})`;
  return h('li', {}, `${r.name}, ${r.state}: `, link, part);
}

async function tables(zip) {
  const [counties, other] = await Promise.all([
    getJson(cfg.api.places),
    getJson(`${cfg.api.places}?table=${zip ? 'zips' : 'places'}`),
  ]);
  if (!counties || !other) throw new Error('the place index is not published');
  $('search-credit').textContent = counties.data.credit;
  return { counties: counties.data.counties, places: other.data.places, zips: other.data.zips };
}

async function run() {
  const list = $('search-results');
  if (!query.trim()) return;
  setStatus('search-status', 'Searching…');
  const zip = Boolean(parseQuery(query, cfg.states)?.zip);
  const answer = search(await tables(zip), query, cfg.states);
  if (answer.go) {
    setStatus('search-status', 'Opening the county page…');
    location.replace(fill(cfg.site.county, { fips: answer.go }));
    return;
  }
  const shown = answer.results;
  list.replaceChildren(...shown.map(item));
  list.hidden = shown.length === 0;
  const q = `“${query.trim()}”`;
  if (answer.query?.zip)
    setStatus(
      'search-status',
      shown.length
        ? `ZIP code ${answer.query.zip} spans ${shown.length} counties: choose one.`
        : `${answer.query.zip} is not a ZIP code tabulation area (PO-box and single-address ZIP codes have none): try the name of the town.`,
    );
  else if (shown.length === 0)
    setStatus(
      'search-status',
      `Nothing matches ${q}. Try a county (“Harris County, TX”), a town (“Orlando, FL”) or a ZIP code.`,
    );
  else
    setStatus(
      'search-status',
      answer.exact
        ? `${q} could mean several counties: choose one.`
        : `No exact match for ${q}; names beginning with it:`,
    );
}

run()
  .catch((err) => setStatus('search-status', `Search failed: ${err.message}`, true))
  .finally(() => {
    document.body.dataset.ready = 'true'; // also while the county page opens: the tests wait on it or on the URL
  });
