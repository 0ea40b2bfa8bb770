// Browser: the embeddable live map (markup: site/src/site/embed-page.ts) for an <iframe> on another site: the
// nation, or one state from /embed/states/{xx} or ?state=xx, with the headline figure, citation and a link back.
import { startLiveMap } from './map-view.js';
import { $, config, count, fill, setStatus, when } from './site.js';

const cfg = config();
const fromQuery = new URLSearchParams(location.search).get('state');
const state = (cfg.state ?? (/^[A-Za-z]{2}$/.test(fromQuery ?? '') ? fromQuery : null))?.toUpperCase() ?? null;
const site = (path) => new URL(path, location.origin).href;
const back = state ? site(fill(cfg.site.state, { state: state.toLowerCase() })) : site(cfg.site.home);
// Links open the full site in a new tab: the host page stays where the reader was.
const href = (fips) => site(fill(cfg.site.county, { fips }));

$('embed-back').href = back;
$('embed-title').textContent = state ? `Power outages in ${state}, live by county` : 'US power outages, live by county';

startLiveMap({
  svg: $('county-map'),
  tip: $('map-tooltip'),
  topology: cfg.topology,
  paths: { map: cfg.api['live.map'], summary: cfg.api['live.summary'], sources: cfg.api['live.sources'] },
  href,
  thresholds: cfg.thresholds,
  state,
  onData(live) {
    const s = state ? (live.summary.states ?? []).find((x) => x.state === state) : live.summary.national;
    $('embed-figure').textContent =
      `${count(s?.customers_out ?? 0)} customers out · ${when(live.summary.generated_at)}${live.summary.simulated ? ' · SIMULATED DATA' : ''}`;
    $('map-figure').setAttribute('aria-busy', 'false');
    for (const a of document.querySelectorAll('#county-map a')) a.setAttribute('target', '_blank');
    document.body.dataset.ready = 'true';
  },
  onStatus: (text, isError) => setStatus('map-status', text, isError),
});
