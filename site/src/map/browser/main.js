// Browser entry of the live national county map on `/` (markup: site/src/map/page.ts): the live map (map-view.js),
// its headline, table and status (panels.js), the 24-hour animation (timeline.js) and the map at a past quarter hour
// (past-map.js). Only the map is on the first paint's path: the modules around it are asked for once it is drawn,
// together with the documents they show, so the page's first requests are the geometry, the live documents and the
// map's own modules (over HTTP/1.1's six connections to a host, each further round of requests costs a phone on a
// slow network over half a second).
import { countyStatus } from './data.js';
import { startLiveMap } from './map-view.js';

const config = JSON.parse(document.getElementById('map-config').textContent);
const href = (fips) => config.countyHref.replace('{fips}', fips);
const figure = document.getElementById('map-figure');
const $ = (id) => document.getElementById(id);

/**
 * A task after this one (a message, not a timer: the tests freeze the page's timers). A long task that drew the map is
 * followed by a frame before the next task, so the map is painted before the work queued this way.
 */
const nextTask = () =>
  new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });

/** The modules around the map, asked for once, after the task that drew the map (or for a status shown before it). */
let around = null;
function loadAround() {
  around ??= nextTask()
    .then(() =>
      Promise.all([
        import('./panels.js'),
        import('./past-map.js'),
        import('./timeline.js'),
        // panels.js's own imports, asked for beside it rather than one round trip after it
        import('./feeds-banner.js'),
        import('./tables.js'),
      ]),
    )
    .then(([{ renderHeadline, renderStatus, renderTable }, { PastMap, utcLabel }, { Timeline }]) => ({
      renderHeadline,
      renderStatus,
      renderTable,
      PastMap,
      utcLabel,
      Timeline,
    }));
  return around;
}

function showStatus(text, isError = false) {
  loadAround().then(
    (m) => m.renderStatus(text, isError),
    (err) => {
      $('map-status').textContent = `${text} (The rest of the page could not load: ${err.message}.)`;
      $('map-status').classList.add('error');
    },
  );
}

/** A document the page reads after the map is drawn, asked for at once (a rejection is reported where it is read). */
function ask(url) {
  const pending = fetch(url, { cache: 'no-cache', headers: { Accept: 'application/json' } });
  pending.catch(() => {});
  return pending;
}

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
function renderRows(m, info, entries, at) {
  const { summary, feeds } = last;
  m.renderTable(
    [...info.values(), ...unmappedRows(entries, summary, info, at ? null : feeds)],
    config.thresholds,
    href,
    config.top,
  );
  $('top-counties-title').textContent = at
    ? `Top counties by customers out at ${m.utcLabel(at)} (archived)`
    : 'Top counties by customers out';
  $('top-counties-empty').textContent = at
    ? 'No county had customers out at that quarter hour.'
    : 'No county has customers out right now.';
}

function showLive(m) {
  last.map.update((shape) => last.info.get(shape.fips));
  renderRows(m, last.info, last.live.map, null);
}

async function loadTimeline(pending) {
  try {
    const res = await pending;
    if (!res.ok) throw new Error(`${config.paths.timeline} answered HTTP ${res.status}`);
    timeline.load((await res.json()).data);
  } catch (err) {
    $('timeline-why').textContent = `Play is off: the 24-hour animation is unavailable (${err.message}).`;
  }
}

/** The animation and the past map over the drawn map, made once. */
function makeControls(m, map) {
  const ui = {
    play: $('timeline-play'),
    range: $('timeline-range'),
    time: $('timeline-time'),
    live: $('timeline-live'),
    why: $('timeline-why'),
  };
  timeline = new m.Timeline(map, ui);
  window.outageTimeline = timeline; // for the browser tests' frame-rate measurement
  past = new m.PastMap({
    map,
    ui: { form: $('past-form'), input: $('past-at'), live: $('past-live'), status: $('past-status') },
    paths: config.paths,
    thresholds: config.thresholds,
    onShow: (pastInfo, data) => {
      timeline.backToLive(); // the county layer carries the archived quarter: no state frame over it
      renderRows(m, pastInfo, data.map, data.quarter_at);
    },
    onLive: () => showLive(m),
  });
  // The animation takes over the map: an archived quarter on the county layer would read as "live" under it.
  ui.range.addEventListener('input', () => past.backToLive());
  ui.play.addEventListener('click', () => past.backToLive());
}

/** After each live read is drawn on the map (map-view.js): the words around it, the animation and the past map. */
async function onData(live, info, feeds, map) {
  const first = !last;
  last = { live, info, feeds, map, summary: live.summary };
  if (first) performance.mark('map-drawn'); // the figure the tests report
  // The animation's frames (new with each cycle) and the archive's extent are asked for with the modules that show
  // them, not after them. After the first draw: neither is needed to show the map.
  const at = live.summary.generated_at;
  const frames = timelineAt === at ? null : ask(config.paths.timeline);
  timelineAt = at;
  const extent = first ? ask(config.paths.archive) : null;
  let m;
  try {
    m = await loadAround();
  } catch {
    return; // said in the status line (showStatus)
  }
  if (last.live !== live) return; // a newer read came while the modules loaded: it draws its own
  m.renderHeadline(live.summary, live.sources);
  const made = !timeline;
  if (made) makeControls(m, map);
  if (past.past) past.apply();
  else renderRows(m, info, live.map, null);
  figure.dataset.generatedAt = at ?? '';
  figure.setAttribute('aria-busy', 'false');
  timeline.reapply();
  const shown = frames ? loadTimeline(frames) : null;
  // Once the animation's frames and the archive's extent are in (or said to be unavailable), everything the page
  // reads on load is shown: the site bench's "full data" figure.
  if (made) Promise.all([shown, past.bound(extent ?? undefined)]).then(() => performance.mark('map-complete'));
}

startLiveMap({
  svg: $('county-map'),
  tip: $('map-tooltip'),
  topology: config.topology,
  paths: config.paths,
  href,
  thresholds: config.thresholds,
  onData,
  onStatus: showStatus,
});
