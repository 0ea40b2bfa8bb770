// The county page /counties/{fips}: live status, utilities, incidents on a small map, the past week from the archive,
// municipalities, alerts, the three charts with their embed snippets, history and downloads. Markup here; browser/county-page.js fills it.
import { CATALOGUE, type Endpoint } from '../../../pipeline/src/contract/catalogue.ts';
import { urlFor } from '../../../pipeline/src/contract/urls.ts';
import { loadAtlas } from '../../../pipeline/src/geo/counties.ts';
import { stateByFips } from '../../../pipeline/src/geo/states.ts';
import { BAND_THRESHOLDS_PCT, MAGNITUDE_THRESHOLDS } from '../../../pipeline/src/state/rules.ts';
import { BAND_COLOURS, NOTHING_OUT } from '../map/page.ts';
import { countyOutline } from './county-outline.ts';
import { esc, layout } from './layout.ts';
import { apiPaths } from './routes.ts';
import { SITE_PATHS, STATE_PAGES, sitePath } from '../../../pipeline/src/contract/site-pages.ts';

const API_IDS = [
  'live.county',
  'live.county.areas',
  'live.county.incidents',
  'live.county.alerts',
  'county',
  'county.history',
  'county.chart.live',
  'county.chart.decade',
  'county.chart.monthly',
  'reports.county',
  'archive.county',
] as const;

/** The documents browser/county-page.js reads at once when it starts (its start()), preloaded with the page. */
const FIRST_READS = ['live.county', 'live.county.incidents', 'live.county.areas', 'live.county.alerts', 'county'];

export const COUNTY_CHARTS = [
  ['county.chart.live', 'Customers out, last 24 hours'],
  ['county.chart.decade', 'Outage customer-hours by year'],
  ['county.chart.monthly', 'Outage customer-hours by month'],
] as const;

/** Every county with a page: every county the map draws, the territories' included (topology.ts). */
export function countyFipsList(): string[] {
  return loadAtlas().counties.map((c) => c.fips);
}

/** Every download of the county: each catalogue entry keyed by fips, in each of its formats. */
function downloads(fips: string): string {
  const keyed = CATALOGUE.filter((e: Endpoint) => e.key === 'fips' && !e.formats.includes('png'));
  return keyed
    .map((e) => {
      const base = e.path.replace('{fips}', fips);
      const links = e.formats.map(
        (f, i) => `<a href="${esc(i === 0 ? base : `${base}?format=${f}`)}" data-format="${f}">${f.toUpperCase()}</a>`,
      );
      return `<li>${esc(e.summary)}: ${links.join(' · ')}</li>`;
    })
    .join('');
}

const CSS = `.county-map svg{width:100%;max-width:420px;height:auto;border:1px solid #ddd;background:#fafaf8}
.county-shape{fill:${NOTHING_OUT};stroke:#555;stroke-width:1}${BAND_COLOURS.map((c, b) => `.county-shape.fill-b${b}{fill:${c}}`).join('')}.incident{fill:#08306b;stroke:#fff;stroke-width:1}.area-box{fill:#08306b1a;stroke:#08306b;stroke-width:1;stroke-dasharray:3 2}
.live-grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,420px);gap:1.5em}@media (max-width:48rem){.live-grid{grid-template-columns:minmax(0,1fr)}}
dl.status{display:grid;grid-template-columns:fit-content(55%) 1fr;gap:.15em 1em}dl.status dt{color:#4a4a4a}dl.status dd{margin:0;font-weight:600}
.past-week{margin:0}.past-week-chart svg{display:block;max-width:100%;height:auto}.pw-label{font-size:12px;fill:#4a4a4a}
.pw-grid{stroke:#e4e4e4}.pw-axis{stroke:#555}.pw-day{stroke:#bbb;stroke-dasharray:2 3}.pw-area{fill:${BAND_COLOURS[3]};fill-opacity:.35}
.pw-line{fill:none;stroke:${BAND_COLOURS[5]};stroke-width:1.6;stroke-linejoin:round}.pw-dot{fill:${BAND_COLOURS[5]}}`;

export function countyPage(fips: string): string | null {
  const county = loadAtlas().byFips.get(fips);
  const state = stateByFips(fips.slice(0, 2));
  if (!county || !state) return null;
  const outline = countyOutline(fips);
  const title = `${county.name}, ${state.code}`;
  const frame = outline?.frame;
  const config = {
    fips,
    name: county.name,
    state: state.code,
    stateSlug: state.code.toLowerCase(),
    frame,
    thresholds: BAND_THRESHOLDS_PCT,
    magnitudes: MAGNITUDE_THRESHOLDS,
    api: apiPaths(API_IDS),
    site: SITE_PATHS,
    charts: COUNTY_CHARTS.map(([id, label]) => ({ id, label: `${label}: ${title}` })),
  };
  const map = outline
    ? `<figure class="county-map" style="margin:0"><svg viewBox="0 0 ${frame!.width} ${frame!.height}" role="img" aria-labelledby="county-map-title"><title id="county-map-title">Map of ${esc(title)} with its incidents (dots) and reporting areas (boxes)</title><path class="county-shape" d="${outline.d}"/><g id="area-boxes"></g><g id="incident-dots"></g></svg><figcaption class="muted" id="county-map-caption">The county filled by its band; incidents with coordinates are dark dots, municipality boxes dashed.</figcaption></figure>`
    : '';
  const statePage = STATE_PAGES.some((s) => s.code === state.code) // territories have no state page
    ? `<a href="${sitePath('state', { state: state.code.toLowerCase() })}">${esc(state.name)}</a>`
    : esc(state.name);
  const main = `<p class="muted">${statePage} · FIPS ${fips}</p>
<h1>${esc(county.name)}, ${esc(state.name)}</h1>
<p id="county-status" role="status" class="muted">Loading the live status…</p>
<div class="live-grid"><section aria-labelledby="live-title"><h2 id="live-title">Live status</h2>
<dl class="status" id="live-status">
<dt>Customers out</dt><dd data-field="customers_out">—</dd><dt>Share of customers out <small>pct_out</small></dt><dd data-field="pct_out">—</dd>
<dt>Band, by share out <small>band</small></dt><dd data-field="band">—</dd><dt>Size, by customers out <small>magnitude</small></dt><dd data-field="magnitude">—</dd>
<dt>Customers served <small>denominator</small></dt><dd data-field="denominator">—</dd><dt>As of</dt><dd data-field="generated_at">—</dd></dl>
<h3>Utilities</h3><table id="utilities-table"></table></section>${map}</div>
<section aria-labelledby="past-week-title"><h2 id="past-week-title">Past week: customers out every 15 minutes</h2>
<figure class="past-week"><div class="past-week-chart" id="past-week-chart"></div><figcaption id="past-week-summary" class="muted" role="status">Loading the past week from the archive…</figcaption></figure></section>
<section aria-labelledby="incidents-title"><h2 id="incidents-title">Incidents</h2><table id="incidents-table"></table></section>
<section aria-labelledby="areas-title"><h2 id="areas-title">Municipalities and townships</h2><p class="muted">A masked count is shown as the utility publishes it (<code>&lt;5</code>).</p><table id="areas-table"></table></section>
<section aria-labelledby="alerts-title"><h2 id="alerts-title">Alerts</h2><p id="alerts-summary"></p><table id="alerts-table"></table></section>
<section aria-labelledby="charts-title"><h2 id="charts-title">Charts</h2><div class="charts" id="charts"></div></section>
<section aria-labelledby="history-title"><h2 id="history-title">History</h2><p id="history-summary" class="muted"></p><table id="years-table"></table><ul id="report-links"></ul></section>
<section aria-labelledby="downloads-title"><h2 id="downloads-title">Downloads</h2><ul id="downloads">${downloads(fips)}</ul></section>`;
  return layout({
    title: `${title} power outages`,
    current: null,
    main,
    module: 'county-page.js',
    config,
    css: CSS,
    preload: FIRST_READS.map((id) => urlFor(CATALOGUE.find((e) => e.id === id)!, { fips })),
  });
}
