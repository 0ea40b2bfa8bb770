// The state page /states/{xx}: the state's counties on a zoomed live map, a sortable county table, the utilities
// serving the state with vendor, freshness and coverage, and report links. Markup here; browser/state-page.js fills it.
import { BAND_THRESHOLDS_PCT } from '../../../pipeline/src/state/rules.ts';
import { CONNECTOR_LABELS } from '../../../pipeline/src/sources/connector-labels.ts';
import { MAP_ASSET_BASE, TOPOLOGY_ASSET } from '../map/assets.ts';
import { BAND_COLOURS, legendHtml, NO_FEED, NOTHING_OUT } from '../map/page.ts';
import { esc, layout } from './layout.ts';
import { apiPaths } from './routes.ts';
import { SITE_PATHS, STATE_PAGES, sitePath } from '../../../pipeline/src/contract/site-pages.ts';

const API_IDS = ['live.map', 'live.summary', 'live.sources', 'reports.state', 'reports.state.chart'] as const;

/** The map's styles (bands, hatch, tooltip) come from the map page, so a state map reads exactly like `/`. */
export const MAP_CSS = `.map-box{position:relative}svg#county-map{width:100%;height:auto;display:block;background:#fff;max-height:70vh}
.county{stroke:#fff;stroke-width:.25}.borders{fill:none;stroke:#555;stroke-width:.6;pointer-events:none}
.out a:focus{outline:none}.out a:focus-visible path,.county:hover{stroke:#000;stroke-width:1.5}
.tooltip{position:absolute;z-index:2;background:#fff;border:1px solid #444;border-radius:4px;padding:.4em .6em;font-size:.85rem;max-width:19rem;pointer-events:none;box-shadow:0 2px 6px #0003}
.tooltip dl{display:grid;grid-template-columns:auto 1fr;gap:0 .6em;margin:.3em 0 0}.tooltip dd{margin:0}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.3em 1em;padding:0;margin:.5em 0;font-size:.85rem}.legend svg{vertical-align:-2px;margin-right:.3em}
${BAND_COLOURS.map((c, b) => `.fill-b${b}{fill:${c}}`).join('')}.fill-none{fill:${NOTHING_OUT}}.fill-nofeed{fill:${NO_FEED}}.fill-untrusted{fill:url(#hatch-untrusted)}`;

export const HATCH_DEFS = `<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><pattern id="hatch-untrusted" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#e4e4e4"/><rect width="1.6" height="4" fill="#4d4d4d"/></pattern></defs></svg>`;

export function mapFigure(label: string): string {
  return `<figure id="map-figure" aria-busy="true" style="margin:0"><div class="map-box">
<svg id="county-map" tabindex="-1" role="group" aria-label="${esc(label)}" viewBox="0 0 975 610"></svg>
<div id="map-tooltip" class="tooltip" role="tooltip" hidden></div></div>
<figcaption>${legendHtml()}<p id="map-status" role="status" class="muted">Loading the live map…</p></figcaption></figure>`;
}

export function mapConfig(state: string | null) {
  return {
    state,
    topology: `${MAP_ASSET_BASE}/${TOPOLOGY_ASSET}`,
    thresholds: BAND_THRESHOLDS_PCT,
    api: apiPaths(API_IDS),
    site: SITE_PATHS,
  };
}

/** The <iframe> that embeds a state's live map; `src` is made absolute in the browser (state-page.js). */
export const embedSnippet = (src: string, name: string) =>
  `<iframe src="${src}" width="800" height="560" title="Live power outages in ${esc(name)}" loading="lazy"></iframe>`;

export function statePage(slug: string): string | null {
  const st = STATE_PAGES.find((s) => s.slug === slug.toLowerCase());
  if (!st) return null;
  const config = { ...mapConfig(st.code), name: st.name, slug: st.slug, fips: st.fips, connectors: CONNECTOR_LABELS };
  const embed = sitePath('embedState', { state: st.slug });
  const main = `${HATCH_DEFS}<h1>${esc(st.name)}: power outages by county</h1>
<p class="figures" id="state-figures" aria-live="polite"><span><strong data-field="customers_out">—</strong> customers out</span>
<span><strong data-field="pct_out">—</strong> of customers</span><span><strong data-field="counties_out">—</strong> counties out</span>
<span class="muted">as of <span data-field="generated_at">…</span></span></p>
${mapFigure(`Map of ${st.name}'s counties coloured by the share of customers out; the table below lists the same numbers.`)}
<section aria-labelledby="counties-title"><h2 id="counties-title">Counties</h2><p class="muted">Select a column heading to sort.</p><table id="counties-table"></table></section>
<section aria-labelledby="utilities-title"><h2 id="utilities-title">Utilities serving ${esc(st.name)}</h2><table id="utilities-table"></table></section>
<section aria-labelledby="reports-title"><h2 id="reports-title">Reports and embeds</h2><ul id="state-links">
<li><a href="${SITE_PATHS.reports}?state=${st.slug}">Annual reports for ${esc(st.name)}</a></li>
<li><a href="${embed}">Embeddable live map of ${esc(st.name)}</a>: paste this HTML into your page.
<div class="embed-code"><textarea id="embed-snippet" rows="4" readonly aria-label="Embed code for the live map of ${esc(st.name)}">${esc(embedSnippet(embed, st.name))}</textarea></div></li></ul></section>`;
  return layout({
    title: `${st.name} power outages`,
    current: null,
    main,
    module: 'state-page.js',
    config,
    css: MAP_CSS,
  });
}
