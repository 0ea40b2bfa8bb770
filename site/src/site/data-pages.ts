// The sources/coverage, events and reports pages: markup and controls generated from the catalogue (paths, event
// filters, report tables), so a filter or table added to the API shows here. Browser modules fill the data.
import { COLUMN_DOCS } from '../../../pipeline/src/contract/report-columns.ts';
import { prose } from './docs-reference.ts';
import { CATALOGUE, REPORT_TABLES } from '../../../pipeline/src/contract/catalogue.ts';
import { EVENT_KINDS } from '../../../pipeline/src/state/lifecycle.ts';
import { EVENT_LABELS } from '../../../pipeline/src/contract/events.ts';
import { STATES } from '../../../pipeline/src/geo/states.ts';
import { CONNECTOR_LABELS } from '../../../pipeline/src/sources/connector-labels.ts';
import { esc, layout } from './layout.ts';
import { apiPaths } from './routes.ts';
import { SITE_PATHS, STATE_PAGES } from '../../../pipeline/src/contract/site-pages.ts';

export function sourcesPage(): string {
  const config = {
    api: apiPaths(['live.sources', 'coverage', 'sources.verification']),
    site: SITE_PATHS,
    states: Object.fromEntries(STATES.map((s) => [s.code, s.name])),
    connectors: CONNECTOR_LABELS,
  };
  const main = `<h1>Sources and coverage</h1>
<p>Every utility feed this server polls, how often, and whether it is fresh; and how US customers are seen live. From <a href="${config.api['live.sources']}"><code>${config.api['live.sources']}</code></a> and <a href="${config.api.coverage}"><code>${config.api.coverage}</code></a>.</p>
<p id="registry-note"></p><p id="sources-status" role="status" class="muted">Loading…</p>
<section aria-labelledby="coverage-title"><h2 id="coverage-title">Coverage</h2><h3>How US customers are seen live</h3><table id="coverage-classes"></table>
<h3>Coverage by state</h3><p id="coverage-status" class="muted"></p><table id="coverage-table"></table>
<details id="coverage-method" hidden><summary>How coverage is counted</summary><p id="coverage-method-text" class="muted"></p></details></section>
<section aria-labelledby="sources-title"><h2 id="sources-title">Sources</h2><h3>By feed software</h3><table id="vendors-table"></table>
<h3>Every source</h3><p class="muted">By utility name; select a column heading to sort. Feed software marked <em>plain http</em> is a feed its utility serves only over http: nothing authenticates its answers, which are checked like every other.</p><table id="sources-table"></table></section>
<section aria-labelledby="verify-title"><h2 id="verify-title">Last verification</h2><p id="verify-status" role="status" class="muted">Loading…</p><table id="verify-failures" hidden></table>
<p class="muted">Every active source probed once by <code>outage sources verify</code>, from <a href="${config.api['sources.verification']}"><code>${config.api['sources.verification']}</code></a>.</p></section>`;
  return layout({ title: 'Sources and coverage', current: 'sources', main, module: 'sources-page.js', config });
}

/** The events filters in words (the parameter's own description is the field's hint). */
const FILTER_LABELS: Record<string, string> = {
  fips: 'County FIPS code',
  state: 'State (e.g. FL)',
  utility: 'Utility (exact name)',
  kind: 'What happened',
  scope: 'What it concerns (e.g. county, incident)',
  min_customers: 'At least this many out',
  since: 'Since (date)',
  limit: 'Events per page',
};

export function eventsPage(): string {
  const events = CATALOGUE.find((e) => e.id === 'events')!;
  const params = (events.functionParams ?? []).filter((p) => p.name !== 'after');
  const feeds = ['feeds.rss', 'feeds.atom', 'feeds.json'];
  const config = {
    api: apiPaths(['events', ...feeds]),
    site: SITE_PATHS,
    filters: params.map((p) => p.name),
    labels: EVENT_LABELS,
    states: Object.fromEntries(STATES.map((s) => [s.code, s.name])),
  };
  const field = (p: (typeof params)[number]) => {
    const input =
      p.name === 'kind'
        ? `<select name="kind" id="f-kind"><option value="">any</option>${EVENT_KINDS.map((k) => `<option value="${k}">${esc(EVENT_LABELS[k])}</option>`).join('')}</select>`
        : `<input name="${p.name}" id="f-${p.name}" ${p.schema.type === 'integer' ? 'type="number" min="0"' : 'type="text"'} size="12">`;
    return `<label for="f-${p.name}">${esc(FILTER_LABELS[p.name] ?? p.name)} ${input}</label>`;
  };
  const main = `<h1>Events</h1>
<p>Outages beginning, growing, improving and restored, restoration estimates changing and feeds going stale: the newest first, from <a href="${config.api.events}"><code>${config.api.events}</code></a>.</p>
<form class="filters" id="event-filters">${params.map(field).join('')}<button type="submit">Show events</button></form>
<details class="muted"><summary>About the filters</summary><p>${params.map((p) => `<code>${esc(p.name)}</code>: ${prose(p.description)}`).join(' ')}</p></details>
<p>Follow these events in a feed reader: <span id="feed-links">${feeds.map((id, i) => `<a data-feed="${id}" href="${config.api[id]}">${['RSS', 'Atom', 'JSON Feed'][i]}</a>`).join(' · ')}</span> (the feeds take the same filters).</p>
<p id="events-status" role="status" class="muted">Loading…</p><table id="events-table"></table>
<p class="pager"><button type="button" id="events-older" hidden>Older events</button> <button type="button" id="events-newer" hidden>Check for newer events</button></p>`;
  return layout({ title: 'Events', current: 'events', main, module: 'events-page.js', config });
}

export function reportsPage(): string {
  const first = 2014;
  const last = new Date().getUTCFullYear();
  const ids = [
    'reports.data',
    'reports.year',
    'reports.state',
    'reports.year.chart',
    'reports.state.chart',
    'reports.causes',
    'reports.trend',
    'live.summary',
  ];
  const config = { api: apiPaths(ids), site: SITE_PATHS, tables: REPORT_TABLES, first, last, columns: COLUMN_DOCS };
  const years = Array.from({ length: last - first + 1 }, (_, i) => last - i);
  const main = `<h1>Annual reports</h1>
<p>Outage episodes, customer-hours and disturbances by year, state and county, from EAGLE-I, this service's live archive (for the time EAGLE-I has not reached yet) and OE-417; each row says where its figures come from. Every table downloads as CSV.</p>
<form class="filters" id="report-form"><label for="r-year">Year <select id="r-year" name="year">${years.map((y) => `<option>${y}</option>`).join('')}</select></label>
<label for="r-state">State <select id="r-state" name="state"><option value="">United States</option>${STATE_PAGES.map((s) => `<option value="${s.slug}">${esc(s.name)}</option>`).join('')}</select></label>
<label for="r-county">County FIPS (optional) <input id="r-county" name="county" inputmode="numeric" pattern="\\d{5}" size="6" aria-describedby="county-help"></label>
<label for="r-table">Table <select id="r-table" name="table"></select></label><button type="submit">Show report</button></form>
<p id="county-help" class="muted">A county report needs its state chosen too; county reports download as JSON.</p>
<p id="report-status" role="status" class="muted">Loading…</p>
<p id="report-downloads"></p><div id="report-table-box"><table id="report-table"></table></div><p id="report-credit" class="muted"></p>
<figure id="report-chart" class="chart" style="margin:1em 0"></figure>
<section aria-labelledby="national-title"><h2 id="national-title">Every year, national</h2><div><table id="national-table"></table></div><p id="national-credit" class="muted"></p>
<p>Data sets: <a href="${config.api['reports.data']}?format=csv">national and state years (CSV)</a> · <a href="${config.api['reports.causes']}?format=csv">causes (CSV)</a> · <a href="${config.api['reports.trend']}?format=csv">trend (CSV)</a></p></section>`;
  return layout({ title: 'Annual reports', current: 'reports', main, module: 'reports-page.js', config });
}
