// Figures that cannot drift (issue 40 part 4): every count the README and docs/ state that the code knows — registry
// rows, connectors, coverage, endpoints, the list of docs pages — is generated between markers by
// scripts/docs-figures.ts, the committed blocks equal what it computes, the figures are the code's own (counted here
// a second way), and no page states such a count outside a block. The README once said 270 active feeds read by 30
// connectors while `outage sources check` counted 376 and the code had 41.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BLOCKS, PAGES, docsFigures, markers, withFigures } from '../../scripts/docs-figures.ts';
import { fromRoot } from '../src/package-root.ts';
import { CONNECTORS } from '../src/sources/source-def.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { buildOpenApi } from '../src/publish/openapi.ts';
import { SHARED_DATA_DIR } from '../src/registry/eia-reference.ts';
import { DOCS, docsUrl } from '../../site/src/site/docs-list.ts';
import { docsPage } from '../../site/src/site/docs-page.ts';

const read = (file: string) => fs.readFileSync(fromRoot(file), 'utf8');
const figures = docsFigures();
const docsFiles = fs
  .readdirSync(fromRoot('docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
/** The README and every docs page the project wrote (the contract is kept as copied). */
const written = ['README.md', ...docsFiles.filter((f) => f !== 'api-contract.md').map((f) => `docs/${f}`)];
const withoutBlocks = (text: string) => text.replace(/<!-- figures:(\S+) [\s\S]*?<!-- \/figures:\1 -->/g, '');

describe('the generated figures of the README and docs/', () => {
  it('are committed as computed: run `npx tsx scripts/docs-figures.ts` after changing what they count', () => {
    const stale = Object.keys(PAGES).filter((file) => withFigures(file, read(file), figures) !== read(file));
    expect(stale, 'pages whose figures differ from the code').toEqual([]);
    // every block a page carries is one the script writes there
    for (const file of written) {
      const names = [...read(file).matchAll(/<!-- figures:(\S+) /g)].map((m) => m[1]);
      expect(names.sort(), file).toEqual([...(PAGES[file] ?? [])].sort());
      for (const n of names) expect(read(file), `${file}: ${n}`).toContain(markers(n)[1]);
    }
    expect(Object.keys(BLOCKS).sort()).toEqual([...new Set(Object.values(PAGES).flat())].sort());
  });

  it("count the registry's rows as a plain reading of data/sources.csv does", () => {
    const rows = parse(read('data/sources.csv'), { columns: true, comment: '#' }) as Array<Record<string, string>>;
    const by = (st: string) => rows.filter((r) => (r.status || 'active') === st);
    expect(figures.rows).toBe(rows.length);
    expect(figures.active).toBe(by('active').length);
    expect(figures.activeFeeds).toBe(by('active').filter((r) => r.connector !== 'odin').length);
    expect(figures.gated.map((g) => g.id).sort()).toEqual(
      by('gated')
        .map((r) => r.id)
        .sort(),
    );
    expect(figures.disabled).toBe(by('disabled').length);
    expect(figures.connectorsUsed).toBe(new Set(by('active').map((r) => r.connector)).size);
    const block = BLOCKS.registry(figures, '.');
    expect(block).toContain(`**${by('active').length} active**`);
    expect(block).toContain(`of the project's ${CONNECTORS.length} connectors`);
  });

  it('count the connectors the code has: one folder each under pipeline/src/sources/', () => {
    expect(figures.connectors).toBe(CONNECTORS.length);
    for (const c of CONNECTORS) expect(fs.existsSync(fromRoot('pipeline/src/sources', c)), c).toBe(true);
  });

  it("give `outage coverage`'s national shares, as data/sources.md prints them", () => {
    const sources = read('data/sources.md');
    const block = BLOCKS.registry(figures, '.');
    for (const p of [figures.pctOwnFeed, figures.pctOwnFeedWithCredentials]) {
      expect(block).toContain(`**${p.toFixed(1)} %**`);
      expect(sources).toContain(`**${p.toFixed(1)} %**`);
    }
  });

  it('count the operations of the catalogue, each one in the OpenAPI document', () => {
    const doc = buildOpenApi(false) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.values(doc.paths).flatMap((p) =>
      Object.keys(p).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)),
    );
    expect(figures.published).toBe(CATALOGUE.length);
    expect(figures.functionOnly).toBe(FUNCTION_ENDPOINTS.length);
    expect(operations).toHaveLength(CATALOGUE.length + FUNCTION_ENDPOINTS.length);
    expect(BLOCKS.endpoints(figures, '.')).toContain(`**${operations.length} operations**`);
  });

  it('are stated nowhere else: no page counts rows, connectors or endpoints outside a generated block', () => {
    // a measured run ("13 connectors × 200" mutations) is a result with its conditions, not a figure of the code
    const count =
      /\b\d[\d,]*\s+(?:active|gated|disabled|connectors(?!\s*×)|endpoints|operations)\b(?:\s+(?:rows|utility feeds|feeds|sources))?/g;
    const found = written.flatMap((file) =>
      [...withoutBlocks(read(file)).matchAll(count)].map((m) => `${file}: «${m[0]}»`),
    );
    expect(found).toEqual([]);
  });
});

describe('the docs pages', () => {
  it('are every file of docs/, each with the title and first line of the list (README, docs/README.md, site)', () => {
    expect(DOCS.map((d) => d.file).sort()).toEqual(docsFiles.filter((f) => f !== 'README.md'));
    for (const d of DOCS) {
      const lines = read(`docs/${d.file}`).split('\n');
      expect(
        lines.find((l) => l.startsWith('# ')),
        d.file,
      ).toBe(`# ${d.title}`);
      if (d.file !== 'api-contract.md') expect(lines[2], d.file).toBe(d.about);
    }
  });

  it("are listed on the site's docs page, linked to the repository", () => {
    const html = docsPage();
    for (const d of DOCS) expect(html, d.file).toContain(`href="${docsUrl(d.file)}"`);
  });

  const spec = path.resolve(SHARED_DATA_DIR, '../spec/outage-data-api.md');
  it.skipIf(!fs.existsSync(spec))(
    'keep the API contract as the spec beside the repository has it, under one header line',
    () => {
      const [header, ...rest] = read('docs/api-contract.md').split('\n');
      expect(header).toMatch(/^<!-- .* -->$/);
      expect(rest.join('\n')).toBe(fs.readFileSync(spec, 'utf8'));
    },
  );
});
