// Browser: the words around the map — SIMULATED banner, headline figures, freshness, and the table of the top
// counties out (the map's text alternative).
import { bandLabel, formatCount, PCT_NULL_REASON } from './data.js';
import { renderFeedsBanner } from './feeds-banner.js';
import { collapseRows } from './tables.js';
import { timeText } from './times.js';

const $ = (id) => document.getElementById(id);

function setFigure(name, text) {
  const e = document.querySelector(`[data-figure="${name}"]`);
  if (e) e.textContent = text;
}

/** "4 min ago", from the page's clock; a clock behind the data reads "just now". */
export function age(iso, now = Date.now()) {
  const min = Math.round((now - Date.parse(iso)) / 60_000);
  if (min < 1) return 'just now';
  if (min < 120) return `${min} min ago`;
  if (min < 48 * 60) return `${Math.round(min / 60)} h ago`;
  return `${Math.round(min / 1440)} days ago`;
}

export function renderHeadline(summary, sources) {
  $('simulated-banner').hidden = !summary.simulated;
  const n = summary.national ?? {};
  setFigure('customers_out', `${formatCount(n.customers_out ?? 0)} customers out`);
  setFigure('counties_out', `${formatCount(n.counties_out ?? 0)} counties out`);
  setFigure('states_out', `${formatCount(n.states_out ?? 0)} states out`);
  const time = document.querySelector('[data-figure="as_of"] time');
  if (time && summary.generated_at) {
    time.dateTime = summary.generated_at;
    time.textContent = `${timeText(summary.generated_at)} (${age(summary.generated_at)})`;
  }
  const all = sources?.sources ?? [];
  const stale = all.filter((s) => s.freshness !== 'fresh').length;
  setFigure(
    'freshness',
    `${formatCount(all.length - stale)} of ${formatCount(all.length)} feeds fresh${stale ? ` · ${formatCount(stale)} stale` : ''}`,
  );
  renderFeedsBanner(all);
}

/** The headings of the table (site/src/map/page.ts), for its stacked view on a phone. */
const COLUMNS = ['County', 'State', 'Customers out', 'Share out', 'Band'];

/** The top counties out as a table: the same numbers as the map, for screen readers and for copying. */
export function renderTable(rows, thresholds, href, limit) {
  const body = $('top-counties-body');
  const top = rows
    .filter((r) => r.status.kind === 'out' || r.status.kind === 'untrusted')
    .sort((a, b) => b.status.customersOut - a.status.customersOut)
    .slice(0, limit);
  body.replaceChildren(
    ...top.map(({ shape, status }) => {
      const tr = document.createElement('tr');
      tr.dataset.fips = shape.fips;
      const link = document.createElement('a');
      link.href = href(shape.fips);
      link.textContent = shape.name;
      const band = status.band < 0 ? 'untrusted' : `${status.band} (${bandLabel(status.band, thresholds)})`;
      const pct = status.pctOut === null ? '—' : `${status.pctOut} %`;
      const cells = [link, shape.state, formatCount(status.customersOut), pct, band];
      tr.append(
        ...cells.map((c, i) => {
          const td = document.createElement(i === 0 ? 'th' : 'td');
          if (i === 0) td.scope = 'row';
          td.dataset.label = COLUMNS[i];
          if (i === 3 && status.pctOut === null) td.title = PCT_NULL_REASON;
          td.append(c);
          return td;
        }),
      );
      return tr;
    }),
  );
  $('top-counties-empty').hidden = top.length > 0;
  collapseRows($('top-counties'), top.length);
}

export function renderStatus(text, isError = false) {
  const e = $('map-status');
  e.textContent = text;
  e.classList.toggle('error', isError);
}
