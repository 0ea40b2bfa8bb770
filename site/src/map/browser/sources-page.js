// Browser: the sources/coverage page (markup: site/src/site/data-pages.ts): which registry this server polls, its
// coverage (coverage-view.js), its sources by vendor and one by one (by utility name) from /api/v1/live/sources, and
// the last verification of the sources from /api/v1/sources/verification.
import { registryNote, renderClasses, renderStateCoverage } from './coverage-view.js';
import { COVERAGE_WORDS } from './data.js';
import {
  $,
  config,
  count,
  feedSoftware,
  getJson,
  h,
  markSimulated,
  plural,
  prose,
  renderTable,
  setStatus,
  time,
  when,
} from './site.js';

const cfg = config();
/** What proves a row is read right: a real capture of its own feed, of its platform, or none (data/sources.md). */
const EVIDENCE = { own: 'its own feed', platform: 'its platform', none: 'a sample only' };
/** A source's `tier` in words (data/sources.md, "Cadence and tier"), the tier itself in small print. */
const TIERS = { 1: 'large', 2: 'regional', 3: 'small' };
const tierOf = (s) => h('span', {}, `${TIERS[s.tier] ?? '—'} `, h('small', {}, `tier ${s.tier}`));
const software = (s) => feedSoftware(s.connector, cfg.connectors);

function renderVendors(rows) {
  const vendors = new Map();
  for (const s of rows) {
    const v = vendors.get(s.connector) ?? { key: s.connector, connector: s.connector, sources: 0, fresh: 0, out: 0 };
    v.sources += 1;
    if (s.freshness === 'fresh') v.fresh += 1;
    v.out += s.customers_out ?? 0;
    vendors.set(s.connector, v);
  }
  renderTable(
    $('vendors-table'),
    [
      { label: 'Feed software', value: (v) => software(v), sort: (v) => cfg.connectors?.[v.connector] ?? v.connector },
      { label: 'Sources', num: true, value: (v) => count(v.sources), sort: (v) => v.sources },
      { label: 'Fresh', num: true, value: (v) => count(v.fresh), sort: (v) => v.fresh },
      { label: 'Customers out', num: true, value: (v) => count(v.out), sort: (v) => v.out },
    ],
    [...vendors.values()].sort((a, b) => b.sources - a.sources || a.connector.localeCompare(b.connector)),
  );
}

/** The feed's software, and `plain http` for a feed the utility serves only over unauthenticated http (`transport`). */
const vendorOf = (s) => h('span', {}, software(s), s.transport === 'plain_http' ? ', plain http' : '');
const vendorKey = (s) => `${cfg.connectors?.[s.connector] ?? s.connector} ${s.transport ?? ''}`;

function renderSources(data) {
  const rows = (data.sources ?? [])
    .map((s) => ({ ...s, key: s.id }))
    .sort((a, b) => a.utility.localeCompare(b.utility) || a.id.localeCompare(b.id));
  renderVendors(rows);
  renderTable(
    $('sources-table'),
    [
      { label: 'Utility', value: (s) => s.utility, sort: (s) => s.utility },
      { label: 'States', value: (s) => (s.states ?? []).join(', '), sort: (s) => (s.states ?? []).join() },
      { label: 'Feed software', value: vendorOf, sort: vendorKey },
      { label: 'Tested on', value: (s) => EVIDENCE[s.evidence] ?? '—', sort: (s) => s.evidence ?? '' },
      { label: 'Utility size', value: tierOf, sort: (s) => s.tier },
      { label: 'Polled every', num: true, value: (s) => `${s.interval_min} min`, sort: (s) => s.interval_min },
      { label: 'Freshness', value: (s) => s.freshness, sort: (s) => s.freshness },
      { label: 'Last fetch', value: (s) => time(s.updated_at), sort: (s) => s.updated_at ?? '' },
      { label: 'Next poll', value: (s) => time(s.next_due_at), sort: (s) => s.next_due_at ?? '' },
      { label: 'The feed gives', value: (s) => COVERAGE_WORDS[s.coverage] ?? '—', sort: (s) => s.coverage ?? '' },
      { label: 'Customers out', num: true, value: (s) => count(s.customers_out), sort: (s) => s.customers_out ?? -1 },
    ],
    rows,
    'No sources.',
  );
  $('sources-table').querySelector('th')?.setAttribute('aria-sort', 'ascending');
  const stale = rows.filter((s) => s.freshness !== 'fresh').length;
  setStatus(
    'sources-status',
    `${plural(rows.length, 'source')}: ${count(rows.length - stale)} fresh, ${count(stale)} stale, as of ${when(data.generated_at)}.`,
  );
}

/** A failure's kind in words (`kubra_view_not_found` → kubra view not found), the kind itself as the tooltip. */
const failureKind = (r) => h('span', { title: r.failure.kind }, r.failure.kind.replaceAll('_', ' '));

/** The last `outage sources verify`: when, how many answered and parsed, and each failure with what to do (text nodes only). */
function renderVerification(doc) {
  const report = doc?.data?.report;
  if (!report) {
    $('verify-status').replaceChildren(
      prose(doc?.data?.message ?? 'This deployment does not publish a verification yet.'),
    );
    return;
  }
  const { rows, ok, failed } = report.summary;
  setStatus(
    'verify-status',
    `${when(report.finished_at)}: ${count(ok)} of ${plural(rows, 'source')} answered and parsed, ${count(failed)} failed.`,
  );
  const failures = report.rows
    .filter((r) => r.failure)
    .map((r) => ({ ...r, key: r.id }))
    .sort((a, b) => a.utility.localeCompare(b.utility));
  const table = $('verify-failures');
  table.hidden = failures.length === 0;
  if (!failures.length) return;
  renderTable(
    table,
    [
      { label: 'Source', value: (r) => r.utility, sort: (r) => r.utility },
      { label: 'Answer', num: true, value: (r) => (r.status === null ? 'none' : String(r.status)) },
      { label: 'Failure', value: failureKind, sort: (r) => r.failure.kind },
      { label: 'What happened', value: (r) => prose(r.failure.message) },
      { label: 'What to do', value: (r) => prose(r.failure.advice) },
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
    markSimulated(sources.data.simulated);
    registryNote(sources.data, coverage?.data);
    renderClasses(sources.data);
    renderStateCoverage(sources.data, coverage?.data, new Map(Object.entries(cfg.states ?? {})), cfg.connectors);
    renderSources(sources.data);
    renderVerification(verification);
  } catch (err) {
    setStatus('sources-status', `Could not load the sources (${err.message}).`, true);
  }
  document.body.dataset.ready = 'true';
}

start();
