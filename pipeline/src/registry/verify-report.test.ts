// verify-report.ts: the terminal and Markdown forms of a report whose upstream text is hostile (escape sequences,
// bidirectional overrides, pipes, backticks, HTML) show it as text and nothing more.
import { describe, expect, it } from 'vitest';
import {
  formatMarkdown,
  formatTerminal,
  markdownText,
  VERIFY_FORMAT,
  type VerifyReport,
  type VerifyRow,
} from './verify-report.ts';

const HOSTILE =
  'evil \u001b[2J\u001b]8;;http://x\u0007link\u001b]8;;\u0007 \u009b31m\r\nnext\u202eline | `code` <script>alert(1)</script> [a](b) *em*';

const row = (over: Partial<VerifyRow>): VerifyRow => ({
  id: 'good',
  utility: 'Good Electric',
  connector: 'nisc',
  states: ['HI'],
  url: 'https://example.com/summary.json',
  answered: true,
  status: 200,
  parsed: true,
  requests: 1,
  customers_out: 1234,
  customers_served: 30000,
  counties: 1,
  counties_outside_territory: 0,
  outside_territory: [],
  eia_customers: 31000,
  served_vs_eia: 0.97,
  ms: 812,
  failure: null,
  ...over,
});
const report = (rows: VerifyRow[]): VerifyReport => ({
  format: VERIFY_FORMAT,
  started_at: '2026-11-26T06:00:00.000Z',
  finished_at: '2026-11-26T06:01:00.000Z',
  ms: 60_000,
  registry: 'data/sources.csv',
  user_agent: 'outage-data/0.1',
  deadline_s: 900,
  eia: 'EIA-861 2018',
  summary: {
    rows: rows.length,
    ok: rows.filter((r) => !r.failure).length,
    failed: rows.filter((r) => r.failure).length,
    not_probed: 0,
  },
  rows,
});
const bad = row({
  id: 'bad',
  utility: `Bad | Utility <b>`,
  status: 200,
  parsed: false,
  customers_out: null,
  customers_served: null,
  counties: null,
  counties_outside_territory: null,
  served_vs_eia: null,
  failure: { kind: 'html_page', reason: 'bad_body', message: HOSTILE, advice: 'compare the url' },
});

describe('markdownText', () => {
  it('escapes pipes, backticks, emphasis, links and HTML', () => {
    expect(markdownText('a | b `c` <i>&</i> [x](y) *z*')).toBe(
      'a \\| b \\`c\\` &lt;i&gt;&amp;&lt;/i&gt; \\[x\\](y) \\*z\\*',
    );
  });
});

describe('formatTerminal', () => {
  it('a table with a line per row, the failures with what to do, and the verdict', () => {
    const text = formatTerminal(report([row({}), bad]));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^id +connector +answer +parsed +out +served +counties +outside +served\/EIA +ms +result$/,
    );
    expect(lines[1]).toMatch(/^good +nisc +200 +yes +1,234 +30,000 +1 +0 +0\.97 +812 +ok$/);
    expect(lines[2]).toMatch(/^bad +nisc +200 +no +— +— +— +— +— +812 +html_page$/);
    expect(text).toMatch(/^bad \(html_page\): evil \\u001b\[2J/m);
    expect(text).toMatch(/^ {2}what to do: compare the url$/m);
    expect(text).toMatch(/^FAILED: 1 of 2 rows failed \(1 html_page\) · 60\.0 s · EIA-861 2018$/m);
    expect(formatTerminal(report([row({})]))).toMatch(/^OK: all 1 rows answered and parsed/m);
  });
});

describe('formatMarkdown', () => {
  it('one table row per source and a section per failure, with no markup from upstream text', () => {
    const md = formatMarkdown(report([row({}), bad]));
    const table = md.split('\n').filter((l) => l.startsWith('| '));
    expect(table).toHaveLength(4);
    // Every table line has exactly the header's cells: no pipe from the utility's name splits one.
    const cells = (l: string) => l.split(/(?<!\\)\|/).length;
    for (const l of table) expect(cells(l)).toBe(cells(table[0]));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(md).not.toMatch(/<script>|<b>|\u001b|\u202e/);
    expect(md).toContain('&lt;script&gt;');
    expect(md).toContain('### bad: Bad \\| Utility &lt;b&gt; (html_page)');
    expect(md).toMatch(/^- What to do: compare the url$/m);
    expect(md).toMatch(/^\*\*Failed: 1 of 2 rows failed \(1 html\\_page\)\.\*\*$/m);
  });
});
