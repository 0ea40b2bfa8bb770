// Browser entry of the live national county map on `/` (markup: site/src/map/page.ts): the live map (map-view.js),
// its headline, table and status (panels.js), and the 24-hour animation (timeline.js).
import { countyStatus } from './data.js';
import { startLiveMap } from './map-view.js';
import { renderHeadline, renderStatus, renderTable } from './panels.js';
import { Timeline } from './timeline.js';

const config = JSON.parse(document.getElementById('map-config').textContent);
const href = (fips) => config.countyHref.replace('{fips}', fips);
const figure = document.getElementById('map-figure');
const $ = (id) => document.getElementById(id);

/** Counties out that the map cannot draw (us-atlas has no shape for them, e.g. Puerto Rico): still in the table. */
function unmappedRows(live, drawn, feeds) {
  const stateOf = new Map((live.summary.states ?? []).map((s) => [s.fips, s.state]));
  return Object.keys(live.map)
    .filter((k) => /^\d{5}$/.test(k) && !drawn.has(k))
    .map((fips) => {
      const shape = { fips, name: `County ${fips}`, state: stateOf.get(fips.slice(0, 2)) ?? '' };
      return { shape, status: countyStatus(live.map[fips], feeds.get(shape.state)) };
    });
}

let timeline = null;
let timelineAt = null;

async function loadTimeline(generatedAt) {
  if (!timeline || timelineAt === generatedAt) return;
  timelineAt = generatedAt;
  try {
    const res = await fetch(config.paths.timeline, { cache: 'no-cache', headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(`${config.paths.timeline} answered HTTP ${res.status}`);
    timeline.load((await res.json()).data);
  } catch (err) {
    $('timeline-status').textContent = `The 24-hour animation is unavailable (${err.message}).`;
  }
}

function onData(live, info, feeds, map) {
  renderHeadline(live.summary, live.sources);
  renderTable([...info.values(), ...unmappedRows(live, info, feeds)], config.thresholds, href, config.top);
  figure.dataset.generatedAt = live.summary.generated_at ?? '';
  if (figure.getAttribute('aria-busy') !== 'false') performance.mark('map-drawn'); // the figure the tests report
  figure.setAttribute('aria-busy', 'false');
  if (!timeline) {
    const ui = {
      play: $('timeline-play'),
      range: $('timeline-range'),
      time: $('timeline-time'),
      live: $('timeline-live'),
    };
    timeline = new Timeline(map, ui);
    window.outageTimeline = timeline; // for the browser tests' frame-rate measurement
  }
  timeline.reapply();
  loadTimeline(live.summary.generated_at);
}

startLiveMap({
  svg: $('county-map'),
  tip: $('map-tooltip'),
  topology: config.topology,
  paths: config.paths,
  href,
  thresholds: config.thresholds,
  onData,
  onStatus: renderStatus,
});
