// Browser entry of the live national county map (markup: site/src/map/page.ts). Draws the counties once, then
// refills them from /api/v1/live/map on the interval its Cache-Control gives, without a reload.
import { mapShapes } from './geometry.js';
import { countyStatus, describeCounty, fetchLive, stateFeeds } from './data.js';
import { CountyMap } from './county-map.js';
import { renderHeadline, renderStatus, renderTable } from './panels.js';

const config = JSON.parse(document.getElementById('map-config').textContent);
const href = (fips) => config.countyHref.replace('{fips}', fips);
const figure = document.getElementById('map-figure');
const CLOCK = new Intl.DateTimeFormat('en-US', { timeStyle: 'medium' });

async function loadShapes() {
  const res = await fetch(config.topology);
  if (!res.ok) throw new Error(`${config.topology} answered HTTP ${res.status}`);
  return mapShapes(await res.json());
}

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

function draw(map, live) {
  const feeds = stateFeeds(live.sources);
  const info = new Map();
  for (const { shape } of map.counties.values()) {
    const f = feeds.get(shape.state);
    const status = countyStatus(live.map[shape.fips], f);
    info.set(shape.fips, { shape, status, text: describeCounty(shape, status, f, config.thresholds) });
  }
  map.update((shape) => info.get(shape.fips));
  renderHeadline(live.summary, live.sources);
  renderTable([...info.values(), ...unmappedRows(live, info, feeds)], config.thresholds, href, config.top);
  figure.dataset.generatedAt = live.summary.generated_at ?? '';
  figure.setAttribute('aria-busy', 'false');
}

let timer = null;
function schedule(map, seconds) {
  clearTimeout(timer);
  timer = setTimeout(() => refresh(map), seconds * 1000);
}

async function refresh(map, pending = fetchLive(config.paths)) {
  try {
    const live = await pending;
    draw(map, live);
    renderStatus(`Updated ${CLOCK.format(new Date())}; refreshes every ${live.refreshS} s without reloading.`);
    schedule(map, live.refreshS);
  } catch (err) {
    renderStatus(`Could not load the live data (${err.message}); trying again in 60 s.`, true);
    schedule(map, 60);
  }
}

async function start() {
  const svg = document.getElementById('county-map');
  const tip = document.getElementById('map-tooltip');
  const live = fetchLive(config.paths); // in parallel with the shapes
  live.catch(() => {}); // reported by refresh()
  let shapes;
  try {
    shapes = await loadShapes();
  } catch (err) {
    renderStatus(
      `Could not load the county shapes (${err.message}). The table below still lists the counties out.`,
      true,
    );
    shapes = { width: 975, height: 610, counties: [], borders: '' };
  }
  await refresh(new CountyMap(svg, tip, shapes, href), live);
}

start();
