// Browser: the reports page (markup: site/src/site/data-pages.ts): the national years table, and one year's (or one
// state's) report table with its CSV download and report chart. Years not loaded say so instead of showing zeros.
import { $, config, getJson, h, renderTable, setStatus } from './site.js';

const cfg = config();
const form = $('report-form');

/** Columns that are codes or labels, not quantities: printed as they are (a year is 2014, not 2,014). */
const PLAIN = new Set(['year', 'month', 'fips', 'utility_number', 'territory_year', 'reliability_year']);
const SOURCES = { eaglei: 'EAGLE-I', archive: 'live archive', both: 'EAGLE-I + archive', simulated: 'SIMULATED' };

/** A cell as a reader wants it: counts grouped, large amounts whole, small ones to two decimals, null as a dash. */
function cell(k, v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (k === 'source') return SOURCES[v] ?? String(v);
  if (typeof v !== 'number') return typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (PLAIN.has(k)) return String(v);
  const digits = Number.isInteger(v) || Math.abs(v) >= 100 ? 0 : 2;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** A column's heading: its name in words (`customer_hours` → Customer hours, `yoy_pct` → Change from last year, %). */
const LABELS = { fips: 'FIPS', yoy_pct: 'Change from last year, %', pct_out: 'Out, %', loaded: 'Loaded' };
function label(k) {
  if (LABELS[k]) return LABELS[k];
  const words = k.replace(/_pct$/, ', %').replace(/_h$/, ' (hours)').replace(/_mw$/, ' (MW)').replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The document's credit under its table (a county document has none of its own: the banner says simulated). */
const credit = (id, doc) => setStatus(id, doc?.data?.source_credit ? `Credit: ${doc.data.source_credit}.` : '');

/** A report table whatever its columns: every column of its rows, in their order, each heading explained. */
function rowsTable(table, rows, empty) {
  const keys = rows.length ? Object.keys(rows[0]) : [];
  renderTable(
    table,
    keys.map((k) => ({
      label: label(k),
      num: typeof rows[0][k] === 'number' && !PLAIN.has(k),
      value: (r) => cell(k, r[k]),
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

/** The scope asked for: a county (5-digit FIPS, within the chosen state), a state, or the nation. */
const countyOf = () => (/^\d{5}$/.test(form.elements.county.value.trim()) ? form.elements.county.value.trim() : '');

function tableOptions() {
  const state = form.elements.state.value;
  const tables = state && countyOf() ? cfg.tables.county : state ? cfg.tables.state : cfg.tables.year;
  const sel = form.elements.table;
  const keep = sel.value;
  sel.replaceChildren(...tables.map((t) => h('option', { value: t }, t)));
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
        : `${year}${state ? `, ${state.toUpperCase()}` : ''}: ${table}.`,
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
