// Browser: the reports page (markup: site/src/site/data-pages.ts): the national years table, and one year's (or one
// state's) report table with its CSV download and report chart. Years not loaded say so instead of showing zeros.
import { $, config, getJson, h, renderTable, setStatus } from './site.js';
import { timeText } from './times.js';

const cfg = config();
const form = $('report-form');

/** Columns that are codes or labels, not quantities: printed as they are (a year is 2014, not 2,014). */
const PLAIN = new Set(['year', 'month', 'fips', 'utility_number', 'territory_year', 'reliability_year']);
const SOURCES = { eaglei: 'EAGLE-I', archive: 'live archive', both: 'EAGLE-I + archive', simulated: 'SIMULATED' };

/** A cell as a reader wants it: counts grouped, large amounts whole, small ones to two decimals, null as a dash. */
function cell(k, v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (k === 'source') return (SOURCES[v] ?? String(v)).replaceAll('-', '\u2011'); // EAGLE-I on one line
  if (typeof v === 'string' && ISO_TIME.test(v)) return timeText(v);
  if (typeof v === 'string' && WORDS.test(v)) return v.replaceAll('_', ' '); // `not_covered` → not covered
  if (typeof v !== 'number') return typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (PLAIN.has(k)) return String(v);
  const digits = Number.isInteger(v) || Math.abs(v) >= 100 ? 0 : 2;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A time the API gives in UTC (period_start, start_at …): said as every time on the site is. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
/** A value that is a word of the API's (an enum such as `not_covered`), shown in words. */
const WORDS = /^[a-z]+(_[a-z]+)+$/;

/** A column's heading: its name in words (`customer_hours` → Customer hours, `yoy_pct` → Change from last year, %). */
const LABELS = {
  fips: 'FIPS',
  yoy_pct: 'Change from last year, %',
  pct_out: 'Out, %',
  loaded: 'Loaded',
  began_at: 'Began (local time, as reported)',
  restored_at: 'Restored (local time, as reported)',
  start_at: 'Start',
  end_at: 'End',
  nerc: 'NERC region',
  demand_loss_mw: 'Demand lost (MW)',
  saidi_with_med: 'SAIDI, minutes',
  saifi_with_med: 'SAIFI, interruptions',
  saidi_without_med: 'SAIDI without major event days',
  saifi_without_med: 'SAIFI without major event days',
  rank_national: 'Rank in the nation',
  rank_state: 'Rank in the state',
};
function label(k) {
  if (LABELS[k]) return LABELS[k];
  const words = k.replace(/_pct$/, ', %').replace(/_h$/, ' (hours)').replace(/_mw$/, ' (MW)').replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The document's credit under its table (a county document has none of its own: the banner says simulated). */
const credit = (id, doc) => setStatus(id, doc?.data?.source_credit ? `Credit: ${doc.data.source_credit}.` : '');

/** A report table whatever its columns: every column of its rows, in their order, each heading explained. */
function rowsTable(table, rows, empty) {
  // The main columns first; the detail ones come with the line above the table ("Show all N columns").
  const keys = shownColumns(table, rows.length ? Object.keys(rows[0]) : [], () => rowsTable(table, rows, empty));
  renderTable(
    table,
    keys.map((k) => ({
      label: label(k),
      num: rows.some((r) => typeof r[k] === 'number') && !PLAIN.has(k),
      value: (r) => (k === 'source' && r.loaded === false ? 'not loaded' : cell(k, r[k])),
      sort: (r) => r[k] ?? -Infinity,
    })),
    rows,
    empty,
  );
  const docs = cfg.columns ?? {};
  keys.forEach((k, i) => {
    const th = table.querySelector('tr')?.children[i];
    if (th && docs[k]) th.title = docs[k];
  });
}

/** Detail columns (coverage, period, size classes, ranks, EIA years), shown with "Show all N columns". */
const DETAIL = new Set([
  'loaded',
  'period_start',
  'period_end',
  'counties_covered',
  'coverage_customers',
  'coverage_min',
  'coverage_max',
  'coverage_pct',
  'major_episodes',
  'max_county_out',
  'disturbance_customers',
  'small',
  'medium',
  'large',
  'major',
  'longest_h',
  'rank_national',
  'rank_state',
  'events_naming_county',
  'utility_number',
  'territory_year',
  'reliability_year',
  'standard',
  'saidi_without_med',
  'saifi_without_med',
  'nerc',
  'event_type',
  'alert_criteria',
]);

/**
 * The columns a report table shows: its main ones, or every one once asked for. The line above the table says how
 * many of how many it shows and switches between them, so a wide table is never cut without a word; tables.js then
 * fits what is shown to the page (compact, or stacked on a phone), as every other table.
 */
function shownColumns(table, all, redraw) {
  const main = all.filter((k) => !DETAIL.has(k));
  let line = table.previousElementSibling?.matches('p.columns') ? table.previousElementSibling : null;
  if (main.length === all.length) {
    line?.remove();
    return all;
  }
  const wide = table.dataset.columns === 'all';
  if (!line) {
    line = h('p', { class: 'columns muted' });
    table.before(line);
  }
  const button = h(
    'button',
    { type: 'button', 'aria-expanded': String(wide), 'aria-controls': table.id },
    wide ? `Show the ${main.length} main columns` : `Show all ${all.length} columns`,
  );
  button.addEventListener('click', () => {
    table.dataset.columns = wide ? 'main' : 'all';
    redraw();
    line.querySelector('button')?.focus();
  });
  line.replaceChildren(
    `${wide ? all.length : main.length} of ${all.length} columns shown; the downloads have every one. `,
    button,
  );
  return wide ? all : main;
}

/** Each report table in words (the API's `table` names are the options' values). */
const TABLE_WORDS = {
  counties: 'Counties',
  events: 'Largest outages',
  states: 'States',
  months: 'Months',
  causes: 'Causes (OE-417)',
  disturbances: 'Disturbances (OE-417)',
  summary: 'Summary',
  years: 'Years',
  utilities: 'Utilities (EIA-861)',
};

/** The scope asked for: a county (5-digit FIPS, within the chosen state), a state, or the nation. */
const countyOf = () => (/^\d{5}$/.test(form.elements.county.value.trim()) ? form.elements.county.value.trim() : '');

function tableOptions() {
  const state = form.elements.state.value;
  const tables = state && countyOf() ? cfg.tables.county : state ? cfg.tables.state : cfg.tables.year;
  const sel = form.elements.table;
  const keep = sel.value;
  sel.replaceChildren(...tables.map((t) => h('option', { value: t }, TABLE_WORDS[t] ?? t)));
  if (tables.includes(keep)) sel.value = keep;
}

async function showReport() {
  const year = form.elements.year.value;
  const state = form.elements.state.value;
  const table = form.elements.table.value;
  const county = state ? countyOf() : '';
  const base = (county ? cfg.api['reports.county'] : state ? cfg.api['reports.state'] : cfg.api['reports.year'])
    .replace('{year}', year)
    .replace('{state}', state)
    .replace('{county}', county);
  const chart = (state ? cfg.api['reports.state.chart'] : cfg.api['reports.year.chart'])
    .replace('{year}', year)
    .replace('{state}', state);
  const url = `${base}?table=${table}`;
  $('report-downloads').replaceChildren(
    'Download: ',
    h('a', { href: url }, 'JSON'),
    ...(county ? [] : [' · ', h('a', { href: `${url}&format=csv` }, 'CSV')]), // county reports are JSON only
  );
  setStatus('report-status', 'Loading…');
  try {
    const doc = await getJson(url);
    if (!doc) throw new Error(`the ${year} report${state ? ` for ${state.toUpperCase()}` : ''} is not published`);
    const rows = doc.data.rows ?? (doc.data.summary ? [doc.data.summary] : []);
    rowsTable($('report-table'), rows, 'No rows.');
    credit('report-credit', doc);
    setStatus(
      'report-status',
      doc.data.loaded === false
        ? `${year} is not loaded: values are null, not zero.`
        : `${year}${state ? `, ${state.toUpperCase()}` : ''}: ${TABLE_WORDS[table] ?? table}.`,
    );
    const alt = `Report chart ${year}${state ? ` ${state.toUpperCase()}` : ''}`;
    $('report-chart').replaceChildren(
      h('img', { src: chart, width: 600, height: 315, alt }),
      h('figcaption', {}, h('a', { href: chart }, 'Chart PNG')),
    );
  } catch (err) {
    renderTable($('report-table'), [], []);
    $('report-chart').replaceChildren();
    setStatus('report-credit', '');
    setStatus('report-status', `No report to show: ${err.message}. History may not be loaded on this deployment.`);
  }
}

/** The national years table, newest first; returns the latest loaded year (null when none is). */
async function showNational() {
  try {
    const doc = await getJson(cfg.api['reports.data']);
    const rows = [...(doc?.data?.rows ?? [])].sort((a, b) => b.year - a.year);
    rowsTable($('national-table'), rows, 'No national report is published (history not loaded).');
    credit('national-credit', doc);
    return rows.find((r) => r.loaded)?.year ?? null;
  } catch (err) {
    rowsTable($('national-table'), [], `Could not load the national table (${err.message}).`);
    return null;
  }
}

const initial = new URLSearchParams(location.search);
if (initial.get('year')) form.elements.year.value = initial.get('year');
if (initial.get('state')) form.elements.state.value = initial.get('state').toLowerCase();
if (initial.get('county')) form.elements.county.value = initial.get('county');
tableOptions();
if (initial.get('table')) form.elements.table.value = initial.get('table');
form.elements.state.addEventListener('change', tableOptions);
form.elements.county.addEventListener('input', tableOptions);
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const q = new URLSearchParams({ year: form.elements.year.value, table: form.elements.table.value });
  if (form.elements.state.value) q.set('state', form.elements.state.value);
  if (countyOf()) q.set('county', countyOf());
  history.replaceState(null, '', `?${q}`);
  showReport();
});
/** Whether this server is building the report tables right now (`outage start`, after its first map). */
async function reportsBuilding() {
  const doc = await getJson(cfg.api['live.summary']).catch(() => null);
  return doc?.data?.reports_building === true;
}

/** Until the tables are published: says they are being built, and looks again every 10 seconds. */
async function waitForReports() {
  for (;;) {
    const latest = await showNational();
    if (latest !== null || !(await reportsBuilding())) return latest;
    setStatus(
      'report-status',
      'The report tables are being built: the history is imported after the map is up (about two minutes on first start). This page fills in when they are ready.',
    );
    document.body.dataset.ready = 'building';
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
}

// The page opens on the latest year with history loaded, unless the address names one.
waitForReports()
  .then((latest) => {
    if (!initial.get('year') && latest) form.elements.year.value = String(latest);
    return showReport();
  })
  .then(() => (document.body.dataset.ready = 'true'));
