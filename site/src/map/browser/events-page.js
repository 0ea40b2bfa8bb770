// Browser: the events page (markup: site/src/site/data-pages.ts): events from /api/v1/events with the catalogue's
// filters, kept in the page's query string so a filtered view can be shared; older pages by the page's next_cursor,
// newer events by its latest_cursor (the API's order and has_more say which way a page reads); the feeds' links.
import {
  $,
  config,
  count,
  countyLabel,
  fill,
  getJson,
  h,
  pct,
  plural,
  renderTable,
  setStatus,
  time,
  when,
} from './site.js';

const cfg = config();
const form = $('event-filters');
/** What is shown: every event read so far, newest first, and the cursors that continue it either way. */
const shown = { events: [], older: null, newer: null, query: new URLSearchParams() };

function query() {
  const q = new URLSearchParams();
  for (const name of cfg.filters) {
    const v = form.elements[name]?.value?.trim();
    if (v) q.set(name, name === 'state' ? v.toUpperCase() : v);
  }
  return q;
}

const county = (e) =>
  h('a', { href: fill(cfg.site.county, { fips: e.fips }) }, countyLabel(e.county_name, e.fips, e.state));

/** Where: the county (a link to its page), the municipality in its county, or a utility's states. */
function where(e) {
  if (e.scope === 'municipality') return h('span', {}, `${e.area ?? 'Area'} in `, e.fips ? county(e) : e.state);
  if (e.fips) return county(e);
  return (e.states ?? []).map((code) => cfg.states?.[code] ?? code).join(', ') || '—';
}

/** A county event counts every utility's customers in the county; the others name their utility. */
const utility = (e) => e.utility ?? (e.scope === 'county' ? h('span', { class: 'muted' }, 'All utilities') : '—');

function what(e) {
  const label = cfg.labels[e.kind] ?? e.kind;
  return e.kind === 'etr_changed' && e.etr ? `${label}: now ${when(e.etr)}` : label;
}

function render() {
  renderTable(
    $('events-table'),
    [
      { label: 'When', value: (e) => time(e.at), sort: (e) => e.id },
      { label: 'What happened', value: what, sort: (e) => cfg.labels[e.kind] ?? e.kind },
      { label: 'Where', value: where, sort: (e) => e.county_name ?? e.states?.join() ?? '' },
      { label: 'Utility', value: utility, sort: (e) => e.utility ?? '' },
      { label: 'Customers out', num: true, value: (e) => count(e.customers_out), sort: (e) => e.customers_out ?? -1 },
      { label: 'Share out', num: true, value: (e) => pct(e.pct_out), sort: (e) => e.pct_out ?? -1 },
    ],
    shown.events,
    'No events match these filters.',
  );
  $('events-older').hidden = !shown.older;
  $('events-newer').hidden = !shown.newer;
}

/** One page of events: the filters, `after` a cursor or none (the newest page). */
async function page(after) {
  const q = new URLSearchParams(shown.query);
  if (after) q.set('after', after);
  const doc = await getJson(`${cfg.api.events}${q.size ? `?${q}` : ''}`);
  if (!doc) throw new Error('the events are not published yet');
  return doc.data;
}

/** Adds a page's events to what is shown, newest first, each once. */
function merge(events) {
  const byId = new Map(shown.events.map((e) => [e.id, e]));
  for (const e of events) byId.set(e.id, { ...e, key: String(e.id) });
  shown.events = [...byId.values()].sort((a, b) => b.id - a.id);
}

function summary(extra = '') {
  const n = shown.events.length;
  const more = shown.older ? ' Older events follow: “Older events” below.' : '';
  return `${plural(n, 'event')}, newest first.${more}${extra}`;
}

async function run(step, failure) {
  setStatus('events-status', 'Loading…');
  try {
    setStatus('events-status', await step());
  } catch (err) {
    setStatus('events-status', `${failure} (${err.message}). Check the filters.`, true);
  }
  render();
  document.body.dataset.ready = 'true';
}

/** The newest page (newest first): has_more says whether older events follow its next_cursor. */
const load = () =>
  run(async () => {
    shown.query = query();
    for (const a of document.querySelectorAll('[data-feed]'))
      a.href = `${cfg.api[a.dataset.feed]}${shown.query.size ? `?${shown.query}` : ''}`;
    shown.events = [];
    const p = await page(null);
    merge(p.events);
    shown.older = p.has_more ? p.next_cursor : null;
    shown.newer = p.latest_cursor;
    return summary();
  }, 'Could not load the events');

const older = () =>
  run(async () => {
    const p = await page(shown.older);
    merge(p.events);
    shown.older = p.has_more ? p.next_cursor : null;
    return summary(` Added ${plural(p.events.length, 'older event')}.`);
  }, 'Could not load older events');

/** From latest_cursor pages read oldest first; has_more false means caught up (its next_cursor is where to ask again). */
const newer = () =>
  run(async () => {
    let added = 0;
    for (let more = true; more; ) {
      const p = await page(shown.newer);
      merge(p.events);
      added += p.events.length;
      shown.newer = p.next_cursor ?? shown.newer;
      more = p.has_more && p.events.length > 0;
    }
    return summary(added ? ` Added ${plural(added, 'newer event')}.` : ' No newer events yet.');
  }, 'Could not check for newer events');

const initial = new URLSearchParams(location.search);
for (const name of cfg.filters)
  if (initial.get(name) && form.elements[name]) form.elements[name].value = initial.get(name);
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const q = query();
  history.replaceState(null, '', q.size ? `?${q}` : location.pathname);
  load();
});
$('events-older').addEventListener('click', older);
$('events-newer').addEventListener('click', newer);
load();
