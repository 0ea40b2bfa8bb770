// Browser: the sources/coverage page (markup: site/src/site/data-pages.ts): connector coverage and every source
// from /api/v1/live/sources, coverage by state from /api/v1/coverage when the deployment publishes it, and the last
// verification of the sources from /api/v1/sources/verification.
import { $, config, count, getJson, markSimulated, pct, renderTable, setStatus, time, when } from './site.js';

const cfg = config();
const CLASSES = [
  ['county', 'Feeds that place outages in counties'],
  ['utility_total', 'Feeds with one utility-wide total'],
  ['outage_only', 'Feeds with located outages, no totals'],
  ['no_feed', 'No feed'],
];

function renderSources(data) {
  markSimulated(data.simulated);
  const cov = data.connector_coverage ?? {};
  renderTable(
    $('coverage-classes'),
    [
      { label: 'How customers are seen live', value: (r) => r.label },
      { label: 'Customers', num: true, value: (r) => count(r.customers) },
      { label: 'Share of US customers', num: true, value: (r) => pct(r.pct) },
      { label: 'Utilities', num: true, value: (r) => count(r.utilities) },
    ],
    CLASSES.map(([k, label]) => ({ key: k, label, ...(cov[k] ?? {}) })),
  );
  const rows = (data.sources ?? []).map((s) => ({ ...s, key: s.id }));
  const EVIDENCE = { own: 'its own feed', platform: 'its platform', none: 'a sample only' };
  renderTable(
    $('sources-table'),
    [
      { label: 'Utility', value: (s) => s.utility, sort: (s) => s.utility },
      { label: 'States', value: (s) => (s.states ?? []).join(', '), sort: (s) => (s.states ?? []).join() },
      { label: 'Vendor', value: (s) => s.connector, sort: (s) => s.connector },
      // what proves the row is read right: a real capture of its own feed, of its platform, or none (data/sources.md)
      { label: 'Tested on', value: (s) => EVIDENCE[s.evidence] ?? '—', sort: (s) => s.evidence ?? '' },
      { label: 'Tier', num: true, value: (s) => String(s.tier), sort: (s) => s.tier },
      { label: 'interval_min', num: true, value: (s) => String(s.interval_min), sort: (s) => s.interval_min },
      { label: 'Freshness', value: (s) => s.freshness, sort: (s) => s.freshness },
      { label: 'updated_at', value: (s) => time(s.updated_at), sort: (s) => s.updated_at ?? '' },
      { label: 'next_due_at', value: (s) => time(s.next_due_at), sort: (s) => s.next_due_at ?? '' },
      { label: 'Coverage', value: (s) => s.coverage ?? '—', sort: (s) => s.coverage ?? '' },
      { label: 'Customers out', num: true, value: (s) => count(s.customers_out), sort: (s) => s.customers_out ?? -1 },
    ],
    rows,
    'No sources.',
  );
  const stale = rows.filter((s) => s.freshness !== 'fresh').length;
  setStatus(
    'sources-status',
    `${count(rows.length)} sources, ${count(rows.length - stale)} fresh, ${count(stale)} stale, as of ${new Date(data.generated_at).toLocaleString('en-US')}.`,
  );
}

function renderCoverage(doc) {
  if (!doc) {
    setStatus('coverage-status', 'Coverage by state is not published by this deployment yet.');
    return;
  }
  const rows = [doc.data.national, ...(doc.data.states ?? [])].filter(Boolean).map((r) => ({ ...r, key: r.scope }));
  setStatus('coverage-status', doc.data.method ?? '');
  // two own-feed figures: without credentials (gated rows not covered) and with every credential the registry names
  const creds = doc.data.credentials?.sources ?? [];
  renderTable(
    $('coverage-table'),
    [
      { label: 'Scope', value: (r) => r.name ?? r.scope, sort: (r) => r.name ?? r.scope },
      { label: 'Customers', num: true, value: (r) => count(r.customers), sort: (r) => r.customers ?? 0 },
      {
        label: 'Own feed, no credentials',
        num: true,
        value: (r) => pct(r.pct_own_feed),
        sort: (r) => r.pct_own_feed ?? -1,
      },
      {
        label: `Own feed, with credentials${creds.length ? ` (${creds.length} gated rows)` : ''}`,
        num: true,
        value: (r) => pct(r.pct_own_feed_with_credentials),
        sort: (r) => r.pct_own_feed_with_credentials ?? -1,
      },
      { label: 'Covered', num: true, value: (r) => pct(r.pct_covered), sort: (r) => r.pct_covered ?? -1 },
      { label: 'Not covered', num: true, value: (r) => pct(r.pct_not_covered), sort: (r) => r.pct_not_covered ?? -1 },
    ],
    rows,
  );
}

/** The last `outage sources verify`: when, how many answered and parsed, and each failure with what to do (text nodes only). */
function renderVerification(doc) {
  const report = doc?.data?.report;
  if (!report) {
    setStatus('verify-status', doc?.data?.message ?? 'This deployment does not publish a verification yet.');
    return;
  }
  const { rows, ok, failed } = report.summary;
  setStatus(
    'verify-status',
    `${when(report.finished_at)}: ${count(ok)} of ${count(rows)} sources answered and parsed, ${count(failed)} failed.`,
  );
  const failures = report.rows.filter((r) => r.failure).map((r) => ({ ...r, key: r.id }));
  const table = $('verify-failures');
  table.hidden = failures.length === 0;
  if (!failures.length) return;
  renderTable(
    table,
    [
      { label: 'Source', value: (r) => r.utility, sort: (r) => r.utility },
      { label: 'Answer', num: true, value: (r) => (r.status === null ? 'none' : String(r.status)) },
      { label: 'Failure', value: (r) => r.failure.kind, sort: (r) => r.failure.kind },
      { label: 'What happened', value: (r) => r.failure.message },
      { label: 'What to do', value: (r) => r.failure.advice },
    ],
    failures,
  );
}

async function start() {
  try {
    const [sources, coverage, verification] = await Promise.all([
      getJson(cfg.api['live.sources']),
      getJson(cfg.api.coverage).catch(() => null),
      getJson(cfg.api['sources.verification']).catch(() => null),
    ]);
    if (!sources) throw new Error('no live sources are published yet');
    renderSources(sources.data);
    renderCoverage(coverage);
    renderVerification(verification);
  } catch (err) {
    setStatus('sources-status', `Could not load the sources (${err.message}).`, true);
  }
  document.body.dataset.ready = 'true';
}

start();
