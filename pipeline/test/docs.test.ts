// Docs cannot drift: every endpoint, CLI command and option, connector and error code is documented.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { Command } from 'commander';
import { buildProgram } from '../src/cli/program.ts';
import { addCommonOptions } from '../src/cli/common.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { CONNECTORS } from '../src/sources/source-def.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { buildLlmsTxt } from '../src/publish/llms.ts';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** A JSON Schema, as far as the walk to the error codes reads it. */
type ErrorSchema = { properties: Record<string, ErrorSchema>; enum: string[] };

/** The text of a `## ` section, up to the next one. */
function section(md: string, heading: string): string {
  const start = md.indexOf(`\n${heading}\n`);
  expect(start, `README section ${heading}`).toBeGreaterThanOrEqual(0);
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

describe('README', () => {
  it('documents every endpoint', () => {
    for (const e of [...CATALOGUE, ...FUNCTION_ENDPOINTS]) expect(readme, e.path).toContain(e.path);
  });
  it('documents every CLI command and subcommand in its own table row: exactly its options, its arguments; shared options above', () => {
    const cli = section(readme, '## CLI');
    const [intro, table] = cli.split('\n| Command |');
    expect(table, 'the CLI table').toBeDefined();
    const common = new Set(addCommonOptions(new Command('x')).options.map((o) => o.long!));
    expect(flagsIn(intro)).toEqual(expect.arrayContaining([...common]));
    const commands = allCommands(buildProgram().commands);
    expect(commands.length).toBeGreaterThan(5);
    const gaps: string[] = []; // every gap at once, so one run tells the README's editor all that is missing
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
  it('documents every connector and every error code', () => {
    for (const c of CONNECTORS) expect(readme).toContain(`\`${c}\``);
    const errorBody = SCHEMAS.ErrorBody as ErrorSchema;
    const codes = errorBody.properties.data.properties.error.properties.code.enum.filter((c) => c !== 'internal');
    for (const code of codes) expect(readme, code).toContain(code === 'gone' ? '410 Gone' : `\`${code}\``);
  });
  it('has the quickstart with exactly the two commands', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
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
