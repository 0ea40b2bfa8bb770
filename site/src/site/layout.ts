// The frame every site page shares: head, navigation, SIMULATED banner slot, footer with the citation line, and the
// page's JSON config for its browser module (site/src/map/browser/). Plain HTML strings, written by both hosts.
import { CITATION } from '../../../pipeline/src/contract/notice.ts';
import { MAP_ASSET_BASE, modulePreloads } from '../map/assets.ts';
import { apiPath, NAV } from './routes.ts';
import { SITE_PATHS, type SitePage } from '../../../pipeline/src/contract/site-pages.ts';

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** JSON for a <script type="application/json">: `<` escaped so no payload can close the script element. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * Tables (browser/tables.js): "Show all N" under a collapsed table; a table too wide for its column is made compact,
 * or else stacked: one row a block, its first cell the block's title, each other cell a "label value" line, its sort
 * buttons kept as a "Sort by" line.
 */
const TABLE_CSS = `button.show-all{font:inherit;margin:.1em 0 .8em;padding:.25em .9em}
table.compact{font-size:.8rem}table.compact th,table.compact td{padding:.2em .25em}
table.stack,table.stack tbody,table.stack tr,table.stack td,table.stack th[scope=row]{display:block}
table.stack tr{border-bottom:1px solid #ddd;padding:.35em 0}table.stack tr[hidden]{display:none}
table.stack td,table.stack th[scope=row]{border:0;padding:.05em 0;text-align:left;display:grid;grid-template-columns:minmax(7em,40%) minmax(0,1fr);gap:.6em;overflow-wrap:anywhere}
table.stack td::before{content:attr(data-label);color:#4a4a4a;white-space:normal}
table.stack td.empty{display:block}table.stack thead{display:block}
table.stack thead tr{display:flex;flex-wrap:wrap;gap:.1em .9em;border-bottom:1px solid #999;font-size:.85rem}
table.stack thead tr::before{content:"Sort by:";color:#4a4a4a}table.stack thead th{display:none;border:0;padding:0}
table.stack thead th:has(button){display:block}table.stack thead:not(:has(button)),table.stack:has(td.empty) thead{display:none}
table.stack td:first-child,table.stack th[scope=row]{display:block;font-weight:600}
table.stack td:first-child::before,table.stack th[scope=row]::before{content:none}.pager button{font:inherit;padding:.25em .9em}`;

// Colours: text #1a1a1a, links #0b4f9c, muted #4a4a4a on white: all above the AA ratio of 4.5:1.
export const SITE_CSS = `
body{font-family:system-ui,sans-serif;max-width:64rem;margin:0 auto;padding:0 1rem 2rem;color:#1a1a1a;line-height:1.45}
a{color:#0b4f9c}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #0b4f9c;outline-offset:2px}
.site-head{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.2em 1.2em;padding:.5em 0;border-bottom:1px solid #ddd;margin-bottom:.8em}
.site-nav{display:flex;flex-wrap:wrap;gap:.2em 1.2em;padding:.2em 0}
.site-nav a{text-decoration:none;font-weight:600}.site-nav a[aria-current]{color:#1a1a1a;text-decoration:underline}
.site-search{display:flex;gap:.3em;flex:0 1 20rem;min-width:0}@media (max-width:40rem){.site-search{flex-basis:100%}}.site-search input{flex:1 1 auto;min-width:0;font:inherit;padding:.2em .4em}.site-search button{font:inherit;padding:.2em .7em}
code{overflow-wrap:anywhere}.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
h1{margin:.2em 0}.banner{background:#fde68a;padding:.6em .8em;border-radius:6px;border:1px solid #b45309}
.muted{color:#4a4a4a}.error{color:#a00}.figures{display:flex;flex-wrap:wrap;gap:.4em 1.4em;font-size:1.05rem}
.figures strong{font-size:1.25rem}table{border-collapse:collapse;font-size:.9rem;margin:.4em 0}
th,td{padding:.25em .6em;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}td.num,th.num{text-align:right}td.num{white-space:nowrap}
th button{all:unset;cursor:pointer;font-weight:700}th button:focus-visible{outline:3px solid #0b4f9c}
.charts{display:grid;gap:1.2em}.chart{display:grid;grid-template-columns:minmax(0,600px) minmax(12rem,1fr);gap:.8em;align-items:start;margin:0 0 1em}
.chart img{width:100%;height:auto;border:1px solid #ddd}pre,textarea{font-size:.8rem;white-space:pre-wrap;word-break:break-all}
textarea{width:100%;box-sizing:border-box}pre{background:#f5f5f3;padding:.6em;border-radius:4px;overflow:auto}
form.filters{display:flex;flex-wrap:wrap;gap:.6em 1em;align-items:end}form.filters label{display:grid;font-size:.85rem}
.site-footer{margin-top:2em;border-top:1px solid #ddd;font-size:.85rem}@media (max-width:40rem){.chart{grid-template-columns:1fr}}
${TABLE_CSS}`;

/** Search by county, town or ZIP code on every page: a plain GET form, answered by the search page (search-page.ts). */
const SEARCH_FORM = `<form class="site-search" role="search" action="${SITE_PATHS.search}" method="get"><label class="vh" for="site-search-q">Find a county by county, city or town, or ZIP code</label><input id="site-search-q" name="q" type="search" placeholder="County, town or ZIP" autocomplete="off" enterkeyhint="search" maxlength="100" required><button type="submit">Search</button></form>`;

export function navHtml(current: SitePage | null): string {
  const links = NAV.map(
    ([page, label]) => `<a href="${SITE_PATHS[page]}"${page === current ? ' aria-current="page"' : ''}>${label}</a>`,
  );
  return `<div class="site-head"><nav class="site-nav" aria-label="Site">${links.join('')}</nav>${SEARCH_FORM}</div>`;
}

/**
 * `<link rel="preload">` for documents a page's module fetches as soon as it runs (same origin, fetch()'s default
 * credentials): the browser asks for them with the page, in parallel with the modules, instead of after them.
 */
export const fetchPreloads = (hrefs: readonly string[]): string =>
  hrefs.map((href) => `<link rel="preload" href="${esc(href)}" as="fetch" crossorigin="anonymous">`).join('');

/**
 * The SIMULATED banner, hidden until the deployment says it is simulated: every page's module asks the live summary
 * named in `data-summary` (browser/site.js), whatever else the page reads (issue 38 part 2: /reports and /events
 * showed simulated figures without it).
 */
export const SIMULATED_BANNER = `<p id="simulated-banner" class="banner" role="note" data-summary="${apiPath('live.summary')}" hidden><strong>SIMULATED DATA.</strong> These figures come from the built-in storm simulator, not real outages.</p>`;

export interface LayoutOptions {
  title: string;
  current: SitePage | null;
  /** trusted HTML of <main> */
  main: string;
  /** the browser module in site/src/map/browser/ that fills the page, and its config */
  module?: string;
  config?: unknown;
  /** extra trusted HTML for <head> (a stylesheet) */
  head?: string;
  /** documents the module fetches as soon as it runs, asked for with the page (fetchPreloads) */
  preload?: readonly string[];
  /** extra CSS for this page */
  css?: string;
  /** embeds have no navigation or footer of their own */
  bare?: boolean;
}

export function layout(o: LayoutOptions): string {
  const config =
    o.config === undefined ? '' : `<script type="application/json" id="page-config">${scriptJson(o.config)}</script>`;
  const script = o.module ? `<script type="module" src="${MAP_ASSET_BASE}/${o.module}"></script>` : '';
  const preloads = `${o.module ? modulePreloads(o.module) : ''}${fetchPreloads(o.preload ?? [])}`;
  const footer = o.bare
    ? ''
    : `<footer class="site-footer"><p>Free, keyless JSON API for United States electric power outages: <a href="${SITE_PATHS.docs}">API docs</a> · <a href="/api/v1/openapi.json">OpenAPI 3.1</a> · <a href="/llms.txt">llms.txt</a></p><p>${esc(CITATION)}</p></footer>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(o.title)} · US Power Outage Data</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><style>${SITE_CSS}${o.css ?? ''}</style>${o.head ?? ''}${preloads}</head><body>
${o.bare ? '' : navHtml(o.current)}${o.bare ? '' : SIMULATED_BANNER}<main>${o.main}</main>${footer}${config}${script}</body></html>`;
}
