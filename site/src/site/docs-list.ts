// The project's documentation pages (docs/*.md), in reading order: the README's "Read more" list, docs/README.md and
// the site's docs page all come from this list (scripts/docs-figures.ts writes the first two; a test checks that every
// file under docs/ is listed and that each page's title and first line are these).

/** Where the repository is published (also in the poller's User-Agent). */
export const REPOSITORY = 'https://github.com/outage-data/outage-data';

export interface DocsPage {
  /** the file under docs/ */
  file: string;
  /** the page's `# ` heading */
  title: string;
  /** the page's first line, what it holds */
  about: string;
}

export const DOCS: readonly DocsPage[] = [
  {
    file: 'cli.md',
    title: 'Command line',
    about: 'Running the service, the task → command table and every `outage` command with its options.',
  },
  {
    file: 'data-notice.md',
    title: 'Data notice',
    about: 'What the figures are, what they are not, and how upstream text is cleaned.',
  },
  {
    file: 'live-map.md',
    title: 'The live map',
    about: 'The national county map, the county, search, sources and events pages, and their browser tests.',
  },
  {
    file: 'architecture.md',
    title: 'Architecture',
    about: 'How the pipeline is laid out, stage by stage, and how a generation is published atomically.',
  },
  {
    file: 'registry-and-connectors.md',
    title: 'Registry and connectors',
    about:
      'The source registry `data/sources.csv` (its columns and options) and the connectors that read each platform.',
  },
  {
    file: 'polling-and-rules.md',
    title: 'Polling and rules',
    about:
      'How feeds are polled (deadlines, politeness, retries, budgets, quarantine) and the rules that turn counts into figures.',
  },
  {
    file: 'endpoints.md',
    title: 'Endpoints',
    about: 'Every endpoint of `/api/v1`, its errors and headers, and the PNG charts.',
  },
  {
    file: 'archive-and-history.md',
    title: 'Archive and history',
    about: 'The importers, episodes and annual report tables; the 15-minute archive and how history grows from it.',
  },
  {
    file: 'events-and-feeds.md',
    title: 'Events and feeds',
    about:
      'When outages open and close, the event kinds, the cursor-paged event stream and the RSS, Atom and JSON feeds.',
  },
  {
    file: 'alert-rules-and-webhooks.md',
    title: 'Alert rules and webhooks',
    about:
      'Accounts, alert rules, their channels (webhooks, Slack, Discord, Teams, email), delivery, signing and the sign-in limits.',
  },
  {
    file: 'deploying.md',
    title: 'Deploying',
    about:
      'Running the poll loop in production, static hosts (Vercel, object storage behind a CDN, nginx) and compression.',
  },
  {
    file: 'benchmarks.md',
    title: 'Benchmarks',
    about: 'What `npm run bench` measures and what it measured, with dates and the machine.',
  },
  {
    file: 'reliability.md',
    title: 'Reliability',
    about:
      'How the service was tried as a hostile upstream would: fuzzing, kill trials, hostile sources and text, the fault soak.',
  },
  {
    file: 'guardrails.md',
    title: 'v1 guardrails',
    about: 'What keeps v1 additive-only, and the limits that keep one client or request from holding the server.',
  },
  {
    file: 'api-contract.md',
    title: 'Outage Data API Specification',
    about: 'The API contract this service implements, section by section (the code cites it as `spec: <section>`).',
  },
];

/** A page's address on the repository's web view. */
export const docsUrl = (file: string): string => `${REPOSITORY}/blob/main/docs/${file}`;
