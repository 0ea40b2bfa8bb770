// Browser: a live county map bound to the API — the national map on `/`, a state's zoomed map, and the embeds.
// Draws the counties once, then refills them from /api/v1/live/map on the interval its Cache-Control gives.
import { CountyMap } from './county-map.js';
import { countyStatus, describeCounty, fetchLive, stateFeeds } from './data.js';
import { mapShapes } from './geometry.js';
import { clockText } from './times.js';

/** The shapes of the nation, or of one state (its counties and its outline only) when `state` is a USPS code. */
export async function loadShapes(url, state) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
  const topo = await res.json();
  if (state) {
    const s = topo.objects.states;
    s.geometries = s.geometries.filter((g) => g.properties.code === state);
    const fips = new Set(s.geometries.map((g) => String(g.id)));
    const c = topo.objects.counties;
    c.geometries = c.geometries.filter((g) => fips.has(String(g.id).slice(0, 2)));
  }
  return mapShapes(topo);
}

/** Fits the map's viewBox to what was drawn (a state's counties), with a small margin. */
function zoomToDrawn(svg, group) {
  const b = group.getBBox();
  if (b.width === 0) return;
  const m = Math.max(b.width, b.height) * 0.03;
  svg.setAttribute('viewBox', `${b.x - m} ${b.y - m} ${b.width + 2 * m} ${b.height + 2 * m}`);
}

/** What each drawn county shows under one read of the live documents. */
export function describeAll(map, live, thresholds) {
  const feeds = stateFeeds(live.sources);
  const info = new Map();
  for (const { shape } of map.counties.values()) {
    const f = feeds.get(shape.state);
    const status = countyStatus(live.map[shape.fips], f);
    info.set(shape.fips, { shape, status, text: describeCounty(shape, status, f, thresholds) });
  }
  return { info, feeds };
}

/**
 * Starts a live map. o: { svg, tip, topology, paths, href(fips), thresholds, state?, onData(live, info, feeds, map),
 * onStatus(text, isError) }; onData runs after the live fills, so an animation showing a frame can repaint it. Resolves with the CountyMap once the first data is drawn.
 */
export async function startLiveMap(o) {
  const live = fetchLive(o.paths); // in parallel with the shapes
  live.catch(() => {}); // reported by refresh()
  let shapes;
  try {
    shapes = await loadShapes(o.topology, o.state);
  } catch (err) {
    o.onStatus(`Could not load the county shapes (${err.message}). The table still lists the counties out.`, true);
    shapes = { width: 975, height: 610, counties: [], borders: '' };
  }
  const map = new CountyMap(o.svg, o.tip, shapes, o.href);
  if (o.state) zoomToDrawn(o.svg, map.quiet);
  let timer = null;
  async function refresh(pending = fetchLive(o.paths)) {
    try {
      const data = await pending;
      const { info, feeds } = describeAll(map, data, o.thresholds);
      map.update((shape) => info.get(shape.fips));
      o.onData(data, info, feeds, map);
      o.onStatus(`Updated ${clockText(Date.now())}; refreshes every ${data.refreshS} s without reloading.`);
      timer = setTimeout(refresh, data.refreshS * 1000);
    } catch (err) {
      o.onStatus(`Could not load the live data (${err.message}); trying again in 60 s.`, true);
      timer = setTimeout(refresh, 60_000);
    }
  }
  await refresh(live);
  map.stop = () => clearTimeout(timer);
  return map;
}
