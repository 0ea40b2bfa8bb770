// Writes the figures the README and docs/ state that the code knows (registry rows, connectors, coverage, endpoints,
// the list of docs pages) between their markers, from the code itself. Run after changing the registry, a connector,
// the catalogue or the docs list: npx tsx scripts/docs-figures.ts. pipeline/test/docs-figures.test.ts fails while a
// committed block differs from what this computes (the pattern of scripts/registry-summary.ts for data/sources.md).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromRoot } from '../pipeline/src/package-root.ts';
import { coverageFor } from '../pipeline/src/coverage/document.ts';
import { loadRegistry } from '../pipeline/src/registry/registry.ts';
import { CONNECTORS } from '../pipeline/src/sources/source-def.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../pipeline/src/contract/catalogue.ts';
import { DOCS } from '../site/src/site/docs-list.ts';

/** What the docs state, as the code counts it. */
export interface DocsFigures {
  rows: number;
  active: number;
  /** active rows other than the ODIN baseline */
  activeFeeds: number;
  connectorsUsed: number;
  connectors: number;
  gated: Array<{ id: string; utility: string }>;
  credentialEnv: string[];
  disabled: number;
  pctOwnFeed: number;
  pctOwnFeedWithCredentials: number;
  published: number;
  functionOnly: number;
}

export function docsFigures(registry = fromRoot('data/sources.csv')): DocsFigures {
  // the rows polled where no credential is set (as `outage coverage` and data/sources.md count them)
  const { sources: active, inactive } = loadRegistry(registry, { env: {} });
  const all = loadRegistry(registry, { env: {}, allStatuses: true }).sources;
  const utility = new Map(all.map((s) => [s.id, s.utility]));
  const coverage = coverageFor(registry);
  return {
    rows: active.length + inactive.length,
    active: active.length,
    activeFeeds: active.filter((s) => s.connector !== 'odin').length,
    connectorsUsed: new Set(active.map((s) => s.connector)).size,
    connectors: CONNECTORS.length,
    gated: inactive.filter((r) => r.status === 'gated').map((r) => ({ id: r.id, utility: utility.get(r.id) ?? r.id })),
    credentialEnv: coverage.credentials.env,
    disabled: inactive.filter((r) => r.status === 'disabled').length,
    pctOwnFeed: coverage.national.pct_own_feed,
    pctOwnFeedWithCredentials: coverage.national.pct_own_feed_with_credentials,
    published: CATALOGUE.length,
    functionOnly: FUNCTION_ENDPOINTS.length,
  };
}

const pct = (n: number) => `${n.toFixed(1)} %`;
const code = (s: string) => `\`${s}\``;
const utilitiesOf = (gated: DocsFigures['gated']) => [...new Set(gated.map((g) => g.utility))].join(', ');

/** The generated blocks by name; `dir` is the directory of the page they go in (for relative links). */
export const BLOCKS: Record<string, (f: DocsFigures, dir: string) => string> = {
  registry: (f) =>
    [
      `The shipped registry, \`data/sources.csv\`, has ${f.rows} rows: **${f.active} active** (${f.activeFeeds} utility`,
      `feeds and the ORNL ODIN baseline), read by ${f.connectorsUsed} of the project's ${f.connectors} connectors;`,
      `${f.gated.length} gated rows (${utilitiesOf(f.gated)}), polled only where their credential is set`,
      `(${f.credentialEnv.map(code).join(', ')}); ${f.disabled} disabled. Their own feeds cover **${pct(f.pctOwnFeed)}**`,
      `of US customers (EIA-861 2018, the 50 states and DC) without credentials and **${pct(f.pctOwnFeedWithCredentials)}**`,
      'with every credential the registry names (`outage coverage`; by state and platform in `data/sources.md`).',
    ].join(' '),
  endpoints: (f) =>
    [
      `The catalogue (\`pipeline/src/contract/catalogue.ts\`) declares **${f.published + f.functionOnly} operations**:`,
      `${f.published} published endpoints (prebuilt files, the function layer answering their filters) and`,
      `${f.functionOnly} that only the function layer answers (\`/healthz\`, the retired alert subscription, accounts,`,
      'keys and rules). Each one is in `/api/v1/openapi.json`, generated from the same list.',
    ].join(' '),
  docs: (_f, dir) =>
    DOCS.map((d) => {
      const href = path.relative(fromRoot(dir), fromRoot('docs', d.file));
      return `- [${d.title}](${href}): ${d.about.replace(/^./, (c) => c.toLowerCase())}`;
    }).join('\n'),
};

/** The files that carry generated blocks, and which. */
export const PAGES: Record<string, readonly string[]> = {
  'README.md': ['registry', 'endpoints', 'docs'],
  'docs/README.md': ['docs'],
  'docs/cli.md': ['registry'],
  'docs/registry-and-connectors.md': ['registry'],
  'docs/endpoints.md': ['endpoints'],
};

export const markers = (name: string): [string, string] => [
  `<!-- figures:${name} (generated from the code by scripts/docs-figures.ts; do not edit) -->`,
  `<!-- /figures:${name} -->`,
];

/** The page with every block it carries rewritten; throws when a marker is missing. */
export function withFigures(file: string, page: string, f: DocsFigures): string {
  let out = page;
  for (const name of PAGES[file] ?? []) {
    const [start, end] = markers(name);
    const a = out.indexOf(start);
    const b = out.indexOf(end);
    if (a < 0 || b < a) throw new Error(`${file} lacks the markers of the \`${name}\` block: ${start} … ${end}`);
    const block = BLOCKS[name](f, path.dirname(file));
    out = `${out.slice(0, a + start.length)}\n${block}\n${out.slice(b)}`;
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const f = docsFigures();
  for (const file of Object.keys(PAGES)) {
    const page = fromRoot(file);
    fs.writeFileSync(page, withFigures(file, fs.readFileSync(page, 'utf8'), f));
  }
  console.log(`figures rewritten in ${Object.keys(PAGES).join(', ')}`);
}
