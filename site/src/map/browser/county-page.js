// Browser: the county page (markup: site/src/site/county-page.ts). Reads the county's live, areas, incidents,
// alerts and profile documents from the API at run time, so a new cycle shows without a rebuild, and charts its past
// week from the archive (past-week.js).
import {
  $,
  config,
  copyButton,
  count,
  embedSnippet,
  fill,
  getJson,
  h,
  markSimulated,
  pct,
  renderTable,
  setStatus,
  time,
  when,
} from './site.js';
import { bandLabel, magnitudeLabel } from './data.js';
import { showWeek, weekRange } from './past-week.js';

const cfg = config();
const p = { fips: cfg.fips };
const api = (id) => fill(cfg.api[id], p);
const SVG = 'http://www.w3.org/2000/svg';

function setField(name, value) {
  const e = document.querySelector(`[data-field="${name}"]`);
  if (e) e.replaceChildren(value);
}

function renderLive(live) {
  if (!live) {
    setStatus('county-status', 'Nothing reported out in this county right now (or no feed covers it).');
    setField('customers_out', '0');
    renderTable($('utilities-table'), [], [], 'No utility reports customers out here.');
    return;
  }
  markSimulated(/SIMULATED/.test(live.notice ?? ''));
  setStatus(
    'county-status',
    `${count(live.customers_out)} customers out as of ${when(live.generated_at)}${live.stale ? ' (a feed is stale)' : ''}.`,
  );
  setField('customers_out', count(live.customers_out));
  if (live.band >= 0) document.querySelector('.county-shape')?.classList.add(`fill-b${Math.min(5, live.band)}`);
  setField('pct_out', live.pct_out === null ? '— (no trusted customer count)' : pct(live.pct_out));
  setField('band', live.band < 0 ? 'untrusted' : `${live.band} (${bandLabel(live.band, cfg.thresholds)} out)`);
  setField('magnitude', magnitudeLabel(live.magnitude, cfg.magnitudes));
  setField('denominator', count(live.denominator));
  setField('generated_at', time(live.generated_at));
  renderTable(
    $('utilities-table'),
    [
      { label: 'Utility', value: (s) => s.utility, sort: (s) => s.utility },
      { label: 'Customers out', num: true, value: (s) => count(s.customers_out), sort: (s) => s.customers_out },
      {
        label: 'Customers served',
        num: true,
        value: (s) => count(s.customers_served),
        sort: (s) => s.customers_served ?? -1,
      },
      { label: 'Feed', value: (s) => (s.stale ? 'stale' : 'fresh') },
    ],
    live.sources ?? [],
  );
}

/** Dots and boxes on the county's small map, in the frame the page was written with (county-outline.ts). */
function plot(incidents, areas) {
  const f = cfg.frame;
  if (!f) return;
  const xy = (lon, lat) => [f.pad + (lon - f.west) * f.cos * f.k, f.pad + (f.north - lat) * f.k];
  const el = (name, attrs) => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };
  $('incident-dots')?.replaceChildren(
    ...incidents
      .filter((i) => i.lat !== null && i.lon !== null)
      .map((i) => {
        const [x, y] = xy(i.lon, i.lat);
        return el('circle', {
          class: 'incident',
          cx: x.toFixed(1),
          cy: y.toFixed(1),
          r: Math.min(9, 3 + Math.log10(1 + i.customers_out) * 1.5).toFixed(1),
        });
      }),
  );
  $('area-boxes')?.replaceChildren(
    ...areas
      .filter((a) => Array.isArray(a.bbox))
      .map(({ bbox: [w, s, e, n] }) => {
        const [x0, y0] = xy(w, n);
        const [x1, y1] = xy(e, s);
        return el('rect', {
          class: 'area-box',
          x: x0.toFixed(1),
          y: y0.toFixed(1),
          width: (x1 - x0).toFixed(1),
          height: (y1 - y0).toFixed(1),
        });
      }),
  );
}

function renderIncidents(doc) {
  const list = doc?.data?.incidents ?? [];
  renderTable(
    $('incidents-table'),
    [
      { label: 'Utility', value: (i) => i.utility, sort: (i) => i.utility },
      { label: 'Customers out', num: true, value: (i) => count(i.customers_out), sort: (i) => i.customers_out },
      { label: 'Cause', value: (i) => i.cause ?? '—', sort: (i) => i.cause ?? '' },
      { label: 'Crew status', value: (i) => i.crew_status ?? '—', sort: (i) => i.crew_status ?? '' },
      { label: 'Estimated restoration', value: (i) => time(i.etr), sort: (i) => i.etr ?? '' },
      { label: 'Started', value: (i) => time(i.started_at), sort: (i) => i.started_at ?? '' },
    ],
    list.map((i) => ({ ...i, key: i.incident_id })),
    'No incidents reported.',
  );
  return list;
}

function renderAreas(doc) {
  const list = doc?.data?.areas ?? [];
  renderTable(
    $('areas-table'),
    [
      { label: 'Area', value: (a) => a.name, sort: (a) => a.name },
      { label: 'Utility', value: (a) => a.utility, sort: (a) => a.utility },
      {
        label: 'Customers out',
        num: true,
        value: (a) => a.out_display ?? count(a.customers_out),
        sort: (a) => a.out_lower ?? a.customers_out,
      },
      { label: 'Served', num: true, value: (a) => count(a.customers_served), sort: (a) => a.customers_served ?? -1 },
      { label: 'Share out', num: true, value: (a) => pct(a.pct_out), sort: (a) => a.pct_out ?? -1 },
      { label: 'Estimated restoration', value: (a) => time(a.etr), sort: (a) => a.etr ?? '' },
    ],
    list.map((a) => ({ ...a, key: a.area_id })),
    'No municipality or township reported.',
  );
  return list;
}

function renderAlerts(doc) {
  const a = doc?.data;
  if (!a) {
    $('alerts-summary').textContent = 'No alert: nothing is out here.';
    return;
  }
  const t = a.thresholds ?? {};
  $('alerts-summary').textContent =
    `${a.alert ? 'Alert' : 'No alert'} at the default thresholds (${count(t.min_customers)} customers or ${t.min_pct} % out).`;
  const rows = [a.county, ...(a.utilities ?? []), ...(a.municipalities ?? [])].filter(Boolean);
  renderTable(
    $('alerts-table'),
    [
      { label: 'Scope', value: (r) => r.scope },
      { label: 'Name', value: (r) => r.name },
      { label: 'Customers out', num: true, value: (r) => count(r.customers_out) },
      { label: 'Share out', num: true, value: (r) => pct(r.pct_out) },
      { label: 'Alert', value: (r) => (r.alert ? 'yes' : 'no') + (r.major_event_line ? ' (major-event line)' : '') },
    ],
    rows,
  );
}

function renderCharts() {
  $('charts').replaceChildren(
    ...cfg.charts.map(({ id, label }, n) => {
      const src = api(id);
      const snippet = h('textarea', {
        rows: 4,
        readonly: true,
        id: `embed-${n}`,
        'aria-label': `Embed code for the chart ${label}`,
      });
      snippet.value = embedSnippet(src, label);
      return h(
        'figure',
        { class: 'chart', 'data-chart': id },
        h('img', { src, width: 600, height: 315, alt: label, loading: 'lazy' }),
        h(
          'figcaption',
          {},
          h('strong', {}, label),
          h('p', {}, 'Embed this chart: paste this HTML into your page.'),
          snippet,
          copyButton(snippet, 'Copy embed code'),
          h('p', {}, h('a', { href: src, download: '' }, 'Download PNG')),
        ),
      );
    }),
  );
}

const SOURCE_LABEL = {
  eaglei: 'EAGLE-I',
  archive: 'live archive',
  both: 'EAGLE-I + live archive',
  simulated: 'SIMULATED',
};

function renderHistory(profile) {
  const years = profile?.data?.years ?? [];
  $('history-summary').textContent = profile?.data?.history_loaded
    ? `Outage episodes by year (source: ${profile.data.history_credit ?? 'EAGLE-I (ORNL), CC BY 4.0'}).`
    : 'History is not loaded for this deployment.';
  renderTable(
    $('years-table'),
    [
      { label: 'Year', value: (y) => String(y.year), sort: (y) => y.year },
      { label: 'Episodes', num: true, value: (y) => count(y.episodes), sort: (y) => y.episodes },
      {
        label: 'Customer-hours',
        num: true,
        value: (y) => count(Math.round(y.customer_hours)),
        sort: (y) => y.customer_hours,
      },
      { label: 'Most out at once', num: true, value: (y) => count(y.max_out), sort: (y) => y.max_out },
      { label: 'Source', value: (y) => SOURCE_LABEL[y.source ?? 'eaglei'] ?? '' },
    ],
    years,
    'No yearly history.',
  );
  $('report-links').replaceChildren(
    ...years.map((y) =>
      h(
        'li',
        {},
        h(
          'a',
          { href: fill(cfg.api['reports.county'], { year: y.year, state: cfg.stateSlug, county: cfg.fips }) },
          `${y.year} county report (JSON)`,
        ),
      ),
    ),
  );
}

/** The past week from the archive: its own request, so a slow or failed archive never holds up the live status. */
async function renderPastWeek() {
  const box = $('past-week-chart');
  const caption = $('past-week-summary');
  const range = weekRange(Date.now());
  const query = new URLSearchParams({ from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() });
  try {
    showWeek(box, caption, await getJson(`${api('archive.county')}?${query}`), range);
  } catch (err) {
    box.replaceChildren();
    setStatus('past-week-summary', `Could not load the past week from the archive: ${err.message}.`, true);
  }
}

async function start() {
  renderCharts();
  const week = renderPastWeek();
  // the page preloads these five (FIRST_READS in site/src/site/county-page.ts): a change here belongs there too
  const [live, incidents, areas, alerts, profile] = await Promise.all(
    ['live.county', 'live.county.incidents', 'live.county.areas', 'live.county.alerts', 'county'].map((id) =>
      getJson(api(id)).catch((err) => ({ error: err })),
    ),
  );
  if (!live?.error) renderLive(live?.data); // a 404 (null) is a quiet county; an error is said below
  for (const d of [live, incidents, areas, alerts, profile])
    if (d?.error) setStatus('county-status', `Could not load part of the page: ${d.error.message}.`, true);
  plot(renderIncidents(incidents), renderAreas(areas));
  renderAlerts(alerts);
  renderHistory(profile);
  await week;
  document.body.dataset.ready = 'true';
}

start();
