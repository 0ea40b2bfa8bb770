// Browser entry of the live national county map on `/` (markup: site/src/map/page.ts): the live map (map-view.js),
// its headline, table and status (panels.js), the 24-hour animation (timeline.js) and the map at a past quarter hour
// (past-map.js).
import { countyStatus } from './data.js';
import { startLiveMap } from './map-view.js';
import { renderHeadline, renderStatus, renderTable } from './panels.js';
import { PastMap, utcLabel } from './past-map.js';
import { Timeline } from './timeline.js';

const config = JSON.parse(document.getElementById('map-config').textContent);
const href = (fips) => config.countyHref.replace('{fips}', fips);
const figure = document.getElementById('map-figure');
const $ = (id) => document.getElementById(id);

/** Counties out that the map cannot draw (us-atlas has no shape for them, e.g. Puerto Rico): still in the table. */
function unmappedRows(entries, summary, drawn, feeds) {
  const stateOf = new Map((summary.states ?? []).map((s) => [s.fips, s.state]));
  return Object.keys(entries)
    .filter((k) => /^\d{5}$/.test(k) && !drawn.has(k))
    .map((fips) => {
      const shape = { fips, name: `County ${fips}`, state: stateOf.get(fips.slice(0, 2)) ?? '' };
      return { shape, status: countyStatus(entries[fips], feeds?.get(shape.state)) };
    });
}

let timeline = null;
let timelineAt = null;
let past = null;
/** The last live read, drawn again when the past map is put away. */
let last = null;

/** The table under the map says what the map shows: the live counties, or the archived quarter's. */
function renderRows(info, entries, at) {
  const { summary, feeds } = last;
  renderTable(
    [...info.values(), ...unmappedRows(entries, summary, info, at ? null : feeds)],
    config.thresholds,
    href,
    config.top,
  );
  $('top-counties-title').textContent = at
    ? `Top counties by customers out at ${utcLabel(at)} (archived)`
    : 'Top counties by customers out';
  $('top-counties-empty').textContent = at
    ? 'No county had customers out at that quarter hour.'
    : 'No county has customers out right now.';
}

function showLive() {
  last.map.update((shape) => last.info.get(shape.fips));
  renderRows(last.info, last.live.map, null);
}

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
  last = { live, info, feeds, map, summary: live.summary };
  renderHeadline(live.summary, live.sources);
  if (past?.past) past.apply();
  else renderRows(info, live.map, null);
  figure.dataset.generatedAt = live.summary.generated_at ?? '';
  if (figure.getAttribute('aria-busy') !== 'false') performance.mark('map-drawn'); // the figure the tests report
  figure.setAttribute('aria-busy', 'false');
  const first = !timeline;
  if (first) {
    const ui = {
      play: $('timeline-play'),
      range: $('timeline-range'),
      time: $('timeline-time'),
      live: $('timeline-live'),
    };
    timeline = new Timeline(map, ui);
    window.outageTimeline = timeline; // for the browser tests' frame-rate measurement
    past = new PastMap({
      map,
      ui: { form: $('past-form'), input: $('past-at'), live: $('past-live'), status: $('past-status') },
      paths: config.paths,
      thresholds: config.thresholds,
      onShow: (pastInfo, data) => {
        timeline.backToLive(); // the county layer carries the archived quarter: no state frame over it
        renderRows(pastInfo, data.map, data.quarter_at);
      },
      onLive: showLive,
    });
    // The animation takes over the map: an archived quarter on the county layer would read as "live" under it.
    ui.range.addEventListener('input', () => past.backToLive());
    ui.play.addEventListener('click', () => past.backToLive());
  }
  timeline.reapply();
  const frames = loadTimeline(live.summary.generated_at);
  // After the first draw: the archive's index is not needed to show the map. Once it and the animation's frames are
  // in (or said to be unavailable), everything the page reads on load is shown: the site bench's "full data" figure.
  if (first) Promise.all([frames, past.bound()]).then(() => performance.mark('map-complete'));
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
