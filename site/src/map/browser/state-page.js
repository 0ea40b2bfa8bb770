// Browser: the state page (markup: site/src/site/state-page.ts): the zoomed live map, the state's figures from
// /live/summary, a sortable table of every county, and the utilities of /live/sources that serve the state.
import { bandLabel, COVERAGE_WORDS } from './data.js';
import { startLiveMap } from './map-view.js';
import {
  $,
  config,
  copyButton,
  count,
  feedSoftware,
  fill,
  h,
  markSimulated,
  pct,
  renderTable,
  setStatus,
  time,
} from './site.js';

const cfg = config();
const href = (fips) => fill(cfg.site.county, { fips });

/** The embed snippet the page was written with, its src made absolute (this host), and a button that copies it. */
function readyEmbed() {
  const box = $('embed-snippet');
  if (!box) return;
  box.value = box.value.replace(/src="([^"]*)"/, (_, src) => `src="${new URL(src, location.origin).href}"`);
  box.after(copyButton(box, 'Copy embed code'));
}
readyEmbed();

function setField(name, value) {
  const e = document.querySelector(`[data-field="${name}"]`);
  if (e) e.replaceChildren(value);
}

function renderFigures(summary) {
  markSimulated(summary.simulated);
  const s = (summary.states ?? []).find((x) => x.state === cfg.state) ?? {};
  setField('customers_out', count(s.customers_out ?? 0));
  setField('pct_out', pct(s.pct_out));
  setField('counties_out', count(s.counties_out ?? 0));
  setField('generated_at', time(summary.generated_at));
}

/** A band always with its range: "3 (10–25 %)"; none for a county with nothing out. */
const bandWords = (st) =>
  st.band === undefined ? '—' : st.band < 0 ? 'untrusted' : `${st.band} (${bandLabel(st.band, cfg.thresholds)})`;

const statusWord = (st) =>
  ({ out: 'out', untrusted: 'out (no trusted count)', quiet: 'nothing out', nofeed: `no feed: ${st.reason}` })[st.kind];

function renderCounties(info) {
  const rows = [...info.values()].map(({ shape, status }) => ({ key: shape.fips, shape, status }));
  rows.sort(
    (a, b) => (b.status.customersOut ?? 0) - (a.status.customersOut ?? 0) || a.shape.name.localeCompare(b.shape.name),
  );
  renderTable(
    $('counties-table'),
    [
      { label: 'County', value: (r) => h('a', { href: href(r.shape.fips) }, r.shape.name), sort: (r) => r.shape.name },
      {
        label: 'Customers out',
        num: true,
        value: (r) => count(r.status.customersOut ?? 0),
        sort: (r) => r.status.customersOut ?? 0,
      },
      { label: 'Share out', num: true, value: (r) => pct(r.status.pctOut), sort: (r) => r.status.pctOut ?? -1 },
      { label: 'Band', value: (r) => bandWords(r.status), sort: (r) => r.status.band ?? -2 },
      { label: 'Status', value: (r) => statusWord(r.status), sort: (r) => r.status.kind },
    ],
    rows,
    'No counties.',
  );
}

function renderUtilities(sources) {
  const rows = (sources.sources ?? [])
    .filter((s) => (s.states ?? []).includes(cfg.state))
    .map((s) => ({ ...s, key: s.id }));
  renderTable(
    $('utilities-table'),
    [
      { label: 'Utility', value: (s) => s.utility, sort: (s) => s.utility },
      {
        label: 'Feed software',
        value: (s) => feedSoftware(s.connector, cfg.connectors),
        sort: (s) => cfg.connectors?.[s.connector] ?? s.connector,
      },
      { label: 'The feed gives', value: (s) => COVERAGE_WORDS[s.coverage] ?? '—', sort: (s) => s.coverage ?? '' },
      { label: 'Freshness', value: (s) => s.freshness, sort: (s) => s.freshness },
      { label: 'Updated', value: (s) => time(s.updated_at), sort: (s) => s.updated_at ?? '' },
      { label: 'Polled every', num: true, value: (s) => `${s.interval_min} min`, sort: (s) => s.interval_min },
      { label: 'Customers out', num: true, value: (s) => count(s.customers_out), sort: (s) => s.customers_out ?? -1 },
    ],
    rows,
    'No source polls this state.',
  );
}

let drawnAt = null;
startLiveMap({
  svg: $('county-map'),
  tip: $('map-tooltip'),
  topology: cfg.topology,
  paths: { map: cfg.api['live.map'], summary: cfg.api['live.summary'], sources: cfg.api['live.sources'] },
  href,
  thresholds: cfg.thresholds,
  state: cfg.state,
  onData(live, info) {
    renderFigures(live.summary);
    if (drawnAt !== live.summary.generated_at) {
      drawnAt = live.summary.generated_at;
      renderCounties(info);
      renderUtilities(live.sources);
    }
    $('map-figure').setAttribute('aria-busy', 'false');
    $('map-figure').dataset.generatedAt = live.summary.generated_at ?? '';
  },
  onStatus: (text, isError) => setStatus('map-status', text, isError),
});
