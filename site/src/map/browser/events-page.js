// Browser: the events page (markup: site/src/site/data-pages.ts): the newest events from /api/v1/events with the
// catalogue's filters, kept in the page's query string so a filtered view can be shared, and the feeds' links.
import { $, config, count, fill, getJson, h, pct, renderTable, setStatus, time } from './site.js';

const cfg = config();
const form = $('event-filters');

function query() {
  const q = new URLSearchParams();
  for (const name of cfg.filters) {
    const v = form.elements[name]?.value?.trim();
    if (v) q.set(name, name === 'state' ? v.toUpperCase() : v);
  }
  return q;
}

function where(e) {
  if (e.fips)
    return h(
      'a',
      { href: fill(cfg.site.county, { fips: e.fips }) },
      `${e.area ? `${e.area}, ` : ''}${e.fips} (${e.state})`,
    );
  return e.utility ?? e.state ?? '—';
}

async function load() {
  const q = query();
  const url = `${cfg.api.events}${q.size ? `?${q}` : ''}`;
  for (const a of document.querySelectorAll('[data-feed]'))
    a.href = `${cfg.api[a.dataset.feed]}${q.size ? `?${q}` : ''}`;
  setStatus('events-status', 'Loading…');
  try {
    const doc = await getJson(url);
    const events = [...(doc?.data?.events ?? [])].sort((a, b) => b.id - a.id); // newest first
    renderTable(
      $('events-table'),
      [
        { label: 'When', value: (e) => time(e.at), sort: (e) => e.at },
        { label: 'Kind', value: (e) => e.kind, sort: (e) => e.kind },
        { label: 'Where', value: where, sort: (e) => e.fips ?? e.utility ?? '' },
        { label: 'Utility', value: (e) => e.utility ?? '—', sort: (e) => e.utility ?? '' },
        { label: 'Customers out', num: true, value: (e) => count(e.customers_out), sort: (e) => e.customers_out ?? -1 },
        { label: 'Share out', num: true, value: (e) => pct(e.pct_out), sort: (e) => e.pct_out ?? -1 },
        { label: 'What happened', value: (e) => e.title },
      ],
      events.map((e) => ({ ...e, key: String(e.id) })),
      'No events match these filters.',
    );
    setStatus(
      'events-status',
      `${count(events.length)} events, newest first${doc?.data?.has_more ? ' (more with the API cursor)' : ''}.`,
    );
  } catch (err) {
    setStatus('events-status', `Could not load the events (${err.message}). Check the filters.`, true);
  }
  document.body.dataset.ready = 'true';
}

const initial = new URLSearchParams(location.search);
for (const name of cfg.filters)
  if (initial.get(name) && form.elements[name]) form.elements[name].value = initial.get(name);
form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const q = query();
  history.replaceState(null, '', q.size ? `?${q}` : location.pathname);
  load();
});
load();
