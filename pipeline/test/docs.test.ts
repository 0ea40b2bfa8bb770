// Docs cannot drift: every endpoint, CLI command and option, connector and error code is documented in docs/, and the
// README stays a door (short, the quickstart, the map, a link to every docs page).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { buildProgram } from '../src/cli/program.ts';
import { addCommonOptions } from '../src/cli/common.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { CONNECTORS } from '../src/sources/source-def.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { buildLlmsTxt } from '../src/publish/llms.ts';
import { fromRoot } from '../src/package-root.ts';

const read = (file: string) => fs.readFileSync(fromRoot(file), 'utf8');
const readme = read('README.md');
/** Every page of docs/ (the README is the door; the text is here). */
const docs = fs
  .readdirSync(fromRoot('docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => read(`docs/${f}`))
  .join('\n');
/** A JSON Schema, as far as the walk to the error codes reads it. */
type ErrorSchema = { properties: Record<string, ErrorSchema>; enum: string[] };

/** The text of a `## ` section, up to the next one. */
function section(md: string, heading: string): string {
  const start = md.indexOf(`\n${heading}\n`);
  expect(start, `docs section ${heading}`).toBeGreaterThanOrEqual(0);
  const end = md.indexOf('\n## ', start + 1);
  return md.slice(start, end === -1 ? undefined : end);
}
const flagsIn = (text: string) => [...new Set([...text.matchAll(/`(--[a-z][\w-]*)/g)].map((m) => m[1]))].sort();
/** Every command and subcommand, by its full name (`sources check`). */
const allCommands = (cmds: readonly Command[], prefix = ''): Array<[string, Command]> =>
  cmds.flatMap((c) => [
    [`${prefix}${c.name()}`, c] as [string, Command],
    ...allCommands(c.commands, `${prefix}${c.name()} `),
  ]);

describe('the README and docs/', () => {
  it('documents every endpoint in the table of docs/endpoints.md', () => {
    const rows = read('docs/endpoints.md')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .join('\n');
    for (const e of [...CATALOGUE, ...FUNCTION_ENDPOINTS]) expect(rows, e.path).toContain(`${e.path}`);
  });
  it('documents every CLI command and subcommand in its own table row: exactly its options, its arguments; shared options above', () => {
    const cli = section(read('docs/cli.md'), '## CLI');
    const [intro, table] = cli.split('\n| Command |');
    expect(table, 'the CLI table').toBeDefined();
    const common = new Set(addCommonOptions(new Command('x')).options.map((o) => o.long!));
    expect(flagsIn(intro)).toEqual(expect.arrayContaining([...common]));
    const commands = allCommands(buildProgram().commands);
    expect(commands.length).toBeGreaterThan(5);
    const gaps: string[] = []; // every gap at once, so one run tells the page's editor all that is missing
    for (const [name, cmd] of commands) {
      const row = table.split('\n').find((l) => l.startsWith(`| \`${name}\` |`));
      if (!row) {
        gaps.push(`no row for \`${name}\``);
        continue;
      }
      const options = row.split(' | ')[1];
      const documented = flagsIn(options);
      const own = cmd.options.map((o) => o.long!).filter((f) => !common.has(f));
      for (const f of own) if (!documented.includes(f)) gaps.push(`${name}: ${f} is not in its row`);
      for (const f of documented)
        if (!own.includes(f)) gaps.push(`${name}: its row lists ${f}, which it does not take`);
      for (const a of cmd.registeredArguments)
        if (!options.includes(`<${a.name()}`)) gaps.push(`${name}: <${a.name()}> is not in its row`);
    }
    expect(gaps).toEqual([]);
  });
  it('documents every connector (docs/registry-and-connectors.md) and every error code', () => {
    const registry = read('docs/registry-and-connectors.md');
    for (const c of CONNECTORS) expect(registry).toContain(`\`${c}\``);
    const errorBody = SCHEMAS.ErrorBody as ErrorSchema;
    const codes = errorBody.properties.data.properties.error.properties.code.enum.filter((c) => c !== 'internal');
    for (const code of codes) expect(docs, code).toContain(code === 'gone' ? '410 Gone' : `\`${code}\``);
  });
  it('is a door: at most 250 lines, the quickstart with its commands, a screenshot of the map, a link to every docs page', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm start -- --live');
    expect(readme).toContain('npm test');
    expect(readme).toMatch(/!\[[^\]]+\]\(docs\/images\/map\.png\)/);
    expect(fs.existsSync(fromRoot('docs/images/map.png'))).toBe(true);
    for (const f of fs.readdirSync(fromRoot('docs')).filter((x) => x.endsWith('.md') && x !== 'README.md'))
      expect(readme, f).toContain(`(docs/${f})`);
    expect(readme).toContain('(CONTRIBUTING.md)');
  });
  it('has no link to a missing file, and no path to the spec beside the repository (docs/api-contract.md is it)', () => {
    const pages = [
      'README.md',
      'CONTRIBUTING.md',
      ...fs
        .readdirSync(fromRoot('docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const page of pages) {
      const text = read(page);
      if (text.includes('shared/spec')) broken.push(`${page} names shared/spec`);
      for (const [, href] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(href)) continue;
        if (!fs.existsSync(path.join(path.dirname(fromRoot(page)), href))) broken.push(`${page} → ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('llms.txt', () => {
  it('lists every endpoint', () => {
    const text = buildLlmsTxt(false);
    for (const e of [...CATALOGUE, ...FUNCTION_ENDPOINTS]) expect(text).toContain(e.path);
    expect(text).toMatch(/## Alert rules/);
    expect(text).toMatch(/Service-Signature/);
  });
});
