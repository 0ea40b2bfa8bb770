// The live national county map page, one implementation for both hosts: the Astro site's `/` and `outage serve`'s
// landing. Server-side it writes the markup, the palette and the legend; site/src/map/browser/ draws and refreshes.
import { CATALOGUE } from '../../../pipeline/src/contract/catalogue.ts';
import { BAND_THRESHOLDS_PCT } from '../../../pipeline/src/state/rules.ts';
import { MAP_ASSET_BASE, modulePreloads, NATIONAL_TOPOLOGY_ASSET } from './assets.ts';
import { fetchPreloads, navHtml, SITE_CSS } from '../site/layout.ts';
import { SITE_PATHS, STATE_PAGES, sitePath } from '../../../pipeline/src/contract/site-pages.ts';
// @ts-expect-error: a plain browser module (no types, no DOM): the page says its first time as the browser does
import { timeText } from './browser/times.js';

/**
 * ColorBrewer YlOrRd, 6 classes (colour-blind safe, sequential): band 0 … 5. Counties with nothing out are a pale
 * grey, "no feed" a darker flat grey, and band −1 (no trusted customer count) is hatched, so none reads as a band.
 */
export const BAND_COLOURS = ['#ffffb2', '#fed976', '#feb24c', '#fd8d3c', '#f03b20', '#bd0026'] as const;
export const NOTHING_OUT = '#f2f2ef';
export const NO_FEED = '#c2c2c2';

export interface MapPageOptions {
  /** the summary known when the page is written (build time or request time), shown until the first refresh */
  summary?: {
    simulated?: boolean;
    generated_at?: string;
    national?: { customers_out?: number; counties_out?: number; states_out?: number };
  } | null;
  simulated?: boolean;
  /** trusted HTML for the footer (links, endpoint list) */
  footer?: string;
}

export const esc = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);
const count = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString('en-US'));
const path = (id: string) => CATALOGUE.find((e) => e.id === id)!.path;

const BAND_TEXT = BAND_COLOURS.map((_, b) =>
  b === 0
    ? `under ${BAND_THRESHOLDS_PCT[0]} %`
    : b === BAND_COLOURS.length - 1
      ? `${BAND_THRESHOLDS_PCT[b - 1]} % or more`
      : `${BAND_THRESHOLDS_PCT[b - 1]}–${BAND_THRESHOLDS_PCT[b]} %`,
);

const CSS = `${SITE_CSS}
.timeline{display:flex;flex-wrap:wrap;align-items:center;gap:.5em 1em;margin:.4em 0}.timeline input{flex:1 1 14rem}
.timeline button{font:inherit;padding:.25em .9em}.timeline output{min-width:13rem;font-variant-numeric:tabular-nums}
.past-form{flex:1 1 20rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5em .8em}
.past-banner{margin:.3em 0;padding:.3em .7em;background:#e8f0fb;border:1px solid #0b4f9c;border-radius:4px;font-weight:600}.past-form input,.past-form button{font:inherit;max-width:100%}.past-form button{padding:.25em .9em}
#past-status{flex-basis:100%;margin:0;font-size:.85rem}
.states-list{columns:4 9rem;padding:0;list-style:none;font-size:.9rem}
.headline{display:flex;flex-wrap:wrap;gap:.4em 1.4em;margin:.6em 0;font-size:1.05rem}.headline [data-figure^=c],.headline [data-figure^=s]{font-weight:600}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;z-index:3;background:#fff;padding:.3em .6em}
.map-box{position:relative}@media (max-width:40rem){.map-box{margin:0 -1rem}}svg#county-map{width:100%;height:auto;display:block;background:#fff}svg#county-map:focus{outline:none}
.county{stroke:#fff;stroke-width:.25}.frame-state{stroke:none}.borders{fill:none;stroke:#555;stroke-width:.6;stroke-linejoin:round;pointer-events:none}
.out a:focus{outline:none}.out a:focus-visible path,.county:hover{stroke:#000;stroke-width:1.5}
${BAND_COLOURS.map((c, b) => `.fill-b${b}{fill:${c}}`).join('')}.fill-none{fill:${NOTHING_OUT}}.fill-nofeed{fill:${NO_FEED}}.fill-untrusted{fill:url(#hatch-untrusted)}
.tooltip{position:absolute;z-index:2;background:#fff;border:1px solid #444;border-radius:4px;padding:.4em .6em;font-size:.85rem;max-width:19rem;pointer-events:none;box-shadow:0 2px 6px #0003}
.tooltip dl{display:grid;grid-template-columns:auto 1fr;gap:0 .6em;margin:.3em 0 0}.tooltip dd{margin:0}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.3em 1em;padding:0;margin:.5em 0;font-size:.85rem}.legend svg{vertical-align:-2px;margin-right:.3em}
#map-status{font-size:.85rem;color:#4a4a4a}#map-status.error{color:#a00}
table{border-collapse:collapse;font-size:.9rem}th,td{padding:.2em .6em;text-align:left;border-bottom:1px solid #ddd}td:nth-child(3),td:nth-child(4){text-align:right}`;

/** The 24-hour animation's controls (browser/timeline.js): native button and range input, so keyboards work. */
const TIMELINE = `<section class="timeline" aria-labelledby="timeline-title"><h2 id="timeline-title" tabindex="-1" style="font-size:1rem;margin:0">Last 24 hours</h2>
<button type="button" id="timeline-play" aria-pressed="false" aria-controls="county-map" aria-describedby="timeline-why" disabled>Play</button>
<label for="timeline-range">Time</label><input type="range" id="timeline-range" min="0" max="0" value="0" step="1" aria-describedby="timeline-why" disabled>
<output id="timeline-time" for="timeline-range" aria-live="off">Live</output><button type="button" id="timeline-live" aria-describedby="timeline-time" disabled>Back to live</button>
<p id="timeline-status" class="muted" style="flex-basis:100%;margin:0;font-size:.85rem">The animation colours each state by its share of customers out in each quarter-hour (state-level frames); Back to live shows the counties again. <span id="timeline-why">Loading the frames of the last 24 hours…</span></p></section>`;

/** The map at a past quarter hour (browser/past-map.js): a UTC date-time picker the archive's extent bounds. */
const PAST = `<section class="timeline" aria-labelledby="past-title"><h2 id="past-title" style="font-size:1rem;margin:0">The map at a past time</h2>
<form id="past-form" class="past-form" novalidate><label for="past-at">Show the map at (UTC)</label><input type="datetime-local" id="past-at" step="900" required aria-describedby="past-status" disabled>
<button type="submit" id="past-show" aria-describedby="past-status" disabled>Show</button><button type="button" id="past-live" aria-describedby="past-status" disabled>Back to the live map</button></form>
<p id="past-status" role="status" class="muted">Loading the archive's extent…</p></section>`;

const STATE_LINKS = STATE_PAGES.map(
  (s) => `<li><a href="${sitePath('state', { state: s.slug })}">${esc(s.name)}</a></li>`,
).join('');

function swatch(cls: string): string {
  return `<svg width="18" height="12" aria-hidden="true"><rect class="${cls}" width="18" height="12" stroke="#777" stroke-width=".5"/></svg>`;
}

/** The legend: one entry per band with its thresholds, then the three states that are not a band. */
export function legendHtml(): string {
  const bands = BAND_TEXT.map((t, b) => `<li data-band="${b}">${swatch(`fill-b${b}`)}${esc(t)} out</li>`);
  const other = [
    ['none', 'fill-none', 'nothing reported out'],
    ['untrusted', 'fill-untrusted', 'out, no trusted customer count (band −1)'],
    ['nofeed', 'fill-nofeed', 'no feed covers this county'],
  ].map(([k, cls, t]) => `<li data-legend="${k}">${swatch(cls)}${esc(t)}</li>`);
  return `<ul class="legend" aria-label="Legend: share of customers out">${[...bands, ...other].join('')}</ul>`;
}

/**
 * What the first draw waits for, asked for with the page's head: the geometry (the largest, first), the map's five
 * modules together rather than one import level at a time, and the three live documents (data.js's fetchLive) rather
 * than after the modules have run. Nine requests: on HTTP/1.1's six connections the documents go as the first modules
 * arrive, and all of it is in while the geometry still is; the modules run meanwhile. The modules around the map load
 * after it is drawn (main.js).
 */
const preloads = (config: { topology: string; paths: { map: string; summary: string; sources: string } }) =>
  `${fetchPreloads([config.topology])}${modulePreloads('main.js')}${fetchPreloads([config.paths.map, config.paths.summary, config.paths.sources])}`;

export function mapPage(opts: MapPageOptions = {}): string {
  const s = opts.summary ?? null;
  const simulated = opts.simulated ?? s?.simulated ?? false;
  const config = {
    paths: {
      map: path('live.map'),
      summary: path('live.summary'),
      sources: path('live.sources'),
      timeline: path('live.timeline'),
      archive: path('archive'),
      archiveMap: path('archive.map'),
    },
    topology: `${MAP_ASSET_BASE}/${NATIONAL_TOPOLOGY_ASSET}`,
    countyHref: SITE_PATHS.county,
    thresholds: BAND_THRESHOLDS_PCT,
    top: 25,
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>US Power Outage Data · live county map</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><style>${CSS}</style>
${preloads(config)}</head><body>
<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><pattern id="hatch-untrusted" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="#e4e4e4"/><rect width="1.6" height="4" fill="#4d4d4d"/></pattern></defs></svg>
<a class="skip" href="#county-map">Skip to the map</a>${navHtml('home')}<header><h1>US power outages, live by county</h1>
<p id="simulated-banner" class="banner" role="note"${simulated ? '' : ' hidden'}><strong>SIMULATED DATA.</strong> These figures come from the built-in storm simulator, not real outages.</p>
<p id="feeds-banner" class="banner" role="status" hidden></p>
<p class="headline" aria-live="polite"><span data-figure="customers_out">${count(s?.national?.customers_out)} customers out</span>
<span data-figure="counties_out">${count(s?.national?.counties_out)} counties out</span><span data-figure="states_out">${count(s?.national?.states_out)} states out</span>
<span data-figure="as_of">as of <time${s?.generated_at ? ` datetime="${esc(s.generated_at)}"` : ''}>${esc(s?.generated_at ? timeText(s.generated_at) : '…')}</time></span><span data-figure="freshness"></span></p></header>
<main><figure id="map-figure" aria-busy="true" style="margin:0"><p id="past-banner" class="past-banner" hidden></p><div class="map-box">
<svg id="county-map" tabindex="-1" role="group" aria-label="Map of US counties coloured by the share of customers out. Counties with customers out are links in order of customers out: Tab reaches the worst, the arrow keys move to the next or previous, Tab again leaves the map. The table below lists the same numbers." viewBox="0 0 975 610"></svg>
<div id="map-tooltip" class="tooltip" role="tooltip" hidden></div></div>
<figcaption>${legendHtml()}<p id="map-status" role="status">Loading the live map…</p></figcaption></figure>
${TIMELINE}
${PAST}
<h2 id="top-counties-title">Top counties by customers out</h2>
<table id="top-counties" aria-labelledby="top-counties-title" data-fit><thead><tr><th scope="col">County</th><th scope="col">State</th><th scope="col">Customers out</th><th scope="col">Share out</th><th scope="col">Band</th></tr></thead>
<tbody id="top-counties-body"></tbody></table><p id="top-counties-empty" hidden>No county has customers out right now.</p>
<section aria-labelledby="states-title"><h2 id="states-title">States</h2><ul class="states-list">${STATE_LINKS}</ul></section></main>
<footer class="site-footer">${opts.footer ?? ''}</footer>
<script type="application/json" id="map-config">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>
<script type="module" src="${MAP_ASSET_BASE}/main.js"></script></body></html>`;
}
