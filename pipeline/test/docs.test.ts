// Docs cannot drift: every endpoint, CLI command and option, connector and error code is documented.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { buildProgram } from '../src/cli/program.ts';
import { CATALOGUE, FUNCTION_ENDPOINTS } from '../src/contract/catalogue.ts';
import { CONNECTORS } from '../src/sources/registry.ts';
import { SCHEMAS } from '../src/contract/schemas.ts';
import { buildLlmsTxt } from '../src/publish/llms.ts';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('documents every endpoint', () => {
    for (const e of [...CATALOGUE, ...FUNCTION_ENDPOINTS]) expect(readme, e.path).toContain(e.path);
  });
  it('documents every CLI command and option', () => {
    for (const cmd of buildProgram().commands) {
      expect(readme, cmd.name()).toContain(`\`${cmd.name()}\``);
      for (const opt of cmd.options) expect(readme, `${cmd.name()} ${opt.long}`).toContain(`\`${opt.long}`);
    }
  });
  it('documents every connector and every error code', () => {
    for (const c of CONNECTORS) expect(readme).toContain(`\`${c}\``);
    const codes = ((SCHEMAS.ErrorBody as any).properties.data.properties.error.properties.code.enum as string[]).filter((c) => c !== 'internal');
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
