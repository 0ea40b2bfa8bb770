// Browser: the banner over the map when most feeds failed their last poll (`npm start -- --live` on a machine
// without network, or an upstream outage), with the cause: how many failed and why, counted by reason.
import { formatCount } from './data.js';

/** A poll's failure reason (/api/v1/live/sources `last_error.reason`) in words. */
const REASONS = {
  network: 'could not connect',
  dns: 'could not find their host',
  timeout: 'timed out',
  http_status: 'refused (HTTP error)',
  too_large: 'answered too much',
  bad_body: 'answered something unreadable',
  schema: 'answered in an unexpected shape',
  config: 'misconfigured',
  implausible_value: 'answered implausible figures',
};
/** What a connection failure says when the host name did not resolve: no DNS, usually no network. */
const NO_NAME = /ENOTFOUND|EAI_AGAIN|EAI_NONAME|getaddrinfo|ENETUNREACH/;

/** The banner's text for the feeds of /api/v1/live/sources, or null when at most half of them (or < 3) fail. */
export function feedsProblem(sources) {
  const failing = sources.filter((s) => s.last_error && s.freshness !== 'fresh');
  if (failing.length < 3 || failing.length * 2 <= sources.length) return null;
  const by = new Map();
  for (const s of failing) by.set(s.last_error.reason, (by.get(s.last_error.reason) ?? 0) + 1);
  const reasons = [...by]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([r, n]) => `${formatCount(n)} ${REASONS[r] ?? r.replaceAll('_', ' ')}`)
    .join(', ');
  const unresolved = failing.filter(
    (s) => s.last_error.reason === 'dns' || NO_NAME.test(s.last_error.message ?? ''),
  ).length;
  const offline = unresolved * 2 > failing.length ? ' Most could not find their host: is this machine offline?' : '';
  return `${formatCount(failing.length)} of ${formatCount(sources.length)} feeds failed their last poll: ${reasons}.${offline} The figures count only the feeds that answered; the sources page lists each failure.`;
}

/** Shows or hides the banner (`#feeds-banner`, site/src/map/page.ts). */
export function renderFeedsBanner(sources) {
  const banner = document.getElementById('feeds-banner');
  if (!banner) return;
  const text = feedsProblem(sources);
  banner.hidden = text === null;
  banner.textContent = text ?? '';
}
