// The embeddable live map, /embed/map (?state=xx) and /embed/states/{xx}: the map and legend only, sized for an
// <iframe>, with the headline figure, the citation line and a link back to the full page (browser/embed-page.js).
import { CITATION } from '../../../pipeline/src/contract/notice.ts';
import { esc, layout } from './layout.ts';
import { STATE_PAGES } from '../../../pipeline/src/contract/site-pages.ts';
import { HATCH_DEFS, MAP_CSS, mapConfig, mapFigure } from './state-page.ts';

const CSS = `body{max-width:none;padding:.4em .6em}main h1{font-size:1.05rem;margin:0}#embed-figure{margin:.1em 0;font-weight:600}
.embed-foot{font-size:.8rem;margin:.2em 0}.legend{font-size:.75rem;gap:.1em .8em}#map-status{display:none}`;

/** The embed page; `state` is the slug of /embed/states/{xx}, or null for /embed/map (which reads ?state=). */
export function embedPage(state: string | null): string | null {
  const st = state === null ? null : STATE_PAGES.find((s) => s.slug === state.toLowerCase());
  if (state !== null && !st) return null;
  const config = mapConfig(st?.code ?? null);
  const main = `${HATCH_DEFS}<h1 id="embed-title">${esc(st ? `Power outages in ${st.name}, live by county` : 'US power outages, live by county')}</h1>
<p id="embed-figure" aria-live="polite">Loading…</p>
${mapFigure('Map of counties coloured by the share of customers out. Counties with customers out are links to their pages.')}
<p class="embed-foot">${esc(CITATION)} <a id="embed-back" href="/" target="_blank" rel="noopener">Full map, tables and data</a></p>`;
  return layout({
    title: st ? `${st.name} live outage map` : 'Live outage map',
    current: null,
    main,
    module: 'embed-page.js',
    config,
    css: MAP_CSS + CSS,
    bare: true,
  });
}
