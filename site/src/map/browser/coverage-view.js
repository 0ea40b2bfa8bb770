// Browser: the sources page's coverage (markup: site/src/site/data-pages.ts), every figure from the registry this
// server polls: how US customers are seen live (/api/v1/live/sources), and coverage by state — from /api/v1/coverage
// when that document describes this registry, else from the polled sources themselves (a simulated deployment's
// coverage document describes the shipped registry, which it does not poll).
import { COVERAGE_WORDS } from './data.js';
import { $, count, feedSoftware, h, pct, plural, prose, renderTable, setStatus } from './site.js';

/** Each coverage class in words (capitalised: a table's first column), and the customers no feed reaches. */
const CLASSES = [
  ...Object.entries(COVERAGE_WORDS).map(([k, words]) => [k, words.charAt(0).toUpperCase() + words.slice(1)]),
  ['no_feed', 'No feed'],
];

/** Whether /api/v1/coverage describes the registry this server polls (null when it is not published). */
export const coverageMatches = (sources, coverage) => Boolean(coverage) && !coverage.simulated && !sources.simulated;

/** Which registry every figure comes from, said once at the top of the page. */
export function registryNote(sources, coverage) {
  const n = plural(sources.sources?.length ?? 0, 'source');
  const text = sources.simulated
    ? `Every figure on this page describes the registry this server polls: the storm simulator's ${n} (simulated). /api/v1/coverage describes the shipped registry${coverage?.registry ? ` (${coverage.registry})` : ''} instead, so it is not shown here.`
    : coverageMatches(sources, coverage)
      ? `Every figure on this page describes the registry this server polls: ${coverage.registry} (${n}).`
      : `Every figure on this page describes the ${n} this server polls.`;
  $('registry-note').textContent = text;
}

export function renderClasses(data) {
  const cov = data.connector_coverage ?? {};
  renderTable(
    $('coverage-classes'),
    [
      { label: 'The feed gives', value: (r) => r.label },
      { label: 'Customers', num: true, value: (r) => count(r.customers) },
      { label: 'Share of US', num: true, value: (r) => pct(r.pct) },
      { label: 'Utilities', num: true, value: (r) => count(r.utilities) },
    ],
    CLASSES.map(([k, label]) => ({ key: k, label, ...(cov[k] ?? {}) })),
  );
}

const byName = (a, b) => (a.name ?? a.scope).localeCompare(b.name ?? b.scope);

/** EIA-861 coverage of this registry: the nation first, then every state and territory by name. */
function renderEia(data) {
  const rows = [data.national, ...(data.states ?? []).sort(byName)].filter(Boolean);
  setStatus('coverage-status', 'Share of each state’s customers (EIA-861 2018) whose utility’s own feed is polled.');
  $('coverage-method-text').replaceChildren(prose(data.method ?? ''));
  $('coverage-method').hidden = !data.method;
  // two own-feed figures: without credentials (gated rows not covered) and with every credential the registry names
  const creds = data.credentials?.sources ?? [];
  const share = (label, k) => ({ label, num: true, value: (r) => pct(r[k]), sort: (r) => r[k] ?? -1 });
  renderTable(
    $('coverage-table'),
    [
      { label: 'State', value: (r) => r.name ?? r.scope, sort: (r) => r.name ?? r.scope },
      { label: 'Customers', num: true, value: (r) => count(r.customers), sort: (r) => r.customers ?? 0 },
      share('Own feed, no credentials', 'pct_own_feed'),
      share(
        `Own feed, with credentials${creds.length ? ` (${creds.length} gated rows)` : ''}`,
        'pct_own_feed_with_credentials',
      ),
      share('Covered', 'pct_covered'),
      share('Not covered', 'pct_not_covered'),
    ],
    rows.map((r) => ({ ...r, key: r.scope })),
  );
}

/** Coverage by state from the polled sources: how many feeds list each state, and how many are fresh. */
function renderFeeds(sources, names, connectors) {
  const states = new Map();
  for (const s of sources.sources ?? [])
    for (const code of s.states ?? []) {
      const e = states.get(code) ?? {
        key: code,
        name: names.get(code) ?? code,
        feeds: 0,
        fresh: 0,
        vendors: new Set(),
      };
      e.feeds += 1;
      if (s.freshness === 'fresh') e.fresh += 1;
      e.vendors.add(s.connector);
      states.set(code, e);
    }
  setStatus('coverage-status', 'The states the polled feeds list, and how many of those feeds are fresh.');
  renderTable(
    $('coverage-table'),
    [
      { label: 'State', value: (r) => r.name, sort: (r) => r.name },
      { label: 'Sources', num: true, value: (r) => count(r.feeds), sort: (r) => r.feeds },
      { label: 'Fresh', num: true, value: (r) => count(r.fresh), sort: (r) => r.fresh },
      {
        label: 'Feed software',
        value: (r) =>
          h('span', {}, ...[...r.vendors].sort().flatMap((c, i) => [i ? ', ' : '', feedSoftware(c, connectors)])),
      },
    ],
    [...states.values()].sort(byName),
    'No source lists a state.',
  );
}

/** names: state code → name; connectors: each connector's words (both the page's config). */
export function renderStateCoverage(sources, coverage, names, connectors) {
  if (coverageMatches(sources, coverage)) renderEia(coverage);
  else renderFeeds(sources, names, connectors);
  $('coverage-table').dataset.from = coverageMatches(sources, coverage) ? 'coverage' : 'sources';
}
