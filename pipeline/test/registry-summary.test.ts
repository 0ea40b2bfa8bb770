// data/sources.md's figures and data/uncovered-utilities.csv are derived from the edited registry: the committed
// copies equal what pipeline/src/registry/summary.ts computes from data/sources.csv (run scripts/registry-summary.ts
// after an edit), and the figures are the registry's own, counted here by a plain reading of the CSV.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { fromRoot } from '../src/package-root.ts';
import { coverageFor } from '../src/coverage/document.ts';
import { SUMMARY_MARKERS, UNCOVERED_COLUMNS, registrySummary, uncoveredRows } from '../src/registry/summary.ts';

const REGISTRY = fromRoot('data/sources.csv');
const rows = parse(readFileSync(REGISTRY), { columns: true, comment: '#' }) as Array<Record<string, string>>;
const coverage = coverageFor(REGISTRY);
const summary = registrySummary(REGISTRY, coverage);

describe('the registry summary (data/sources.md, data/uncovered-utilities.csv)', () => {
  it('is committed as computed: run `npx tsx scripts/registry-summary.ts` after editing data/sources.csv', () => {
    const page = readFileSync(fromRoot('data/sources.md'), 'utf8');
    const [start, end] = SUMMARY_MARKERS;
    expect(page.slice(page.indexOf(start) + start.length, page.indexOf(end)).trim()).toBe(summary.trim());
    const csv = stringify(uncoveredRows(coverage), { header: true, columns: [...UNCOVERED_COLUMNS] });
    expect(readFileSync(fromRoot('data/uncovered-utilities.csv'), 'utf8')).toBe(csv);
  });

  it("counts the CSV's rows, statuses, platforms and evidence", () => {
    const by = (st: string) => rows.filter((r) => r.status === st).length;
    expect(summary).toContain(
      `Rows: ${rows.length} (${by('active')} active, ${by('gated')} gated, ${by('disabled')} disabled).`,
    );
    const active = rows.filter((r) => r.status === 'active');
    const nisc = active.filter((r) => r.platform === 'nisc');
    const customers = nisc.reduce((s, r) => s + Number(r.customers || 0), 0);
    expect(summary).toContain(`| nisc | ${nisc.length} | ${customers.toLocaleString('en-US')} |`);
    const ev = (e: string) => active.filter((r) => r.evidence === e).length;
    expect(summary).toContain(`| **all** | ${ev('own')} | ${ev('platform')} | ${ev('none')} |`);
  });

  it("gives `outage coverage`'s national shares and its largest uncovered utilities", () => {
    const us = coverage.national;
    expect(summary).toContain(`**${us.pct_own_feed.toFixed(1)} %**`);
    expect(summary).toContain(`**${us.pct_own_feed_with_credentials.toFixed(1)} %**`);
    const listed = uncoveredRows(coverage);
    expect(listed).toHaveLength(20);
    // none of them is the eia_id of an active row
    const activeIds = new Set(rows.filter((r) => r.status === 'active').flatMap((r) => r.eia_id.split(';')));
    expect(listed.filter((u) => activeIds.has(u.eia_id))).toEqual([]);
    expect(listed.find((u) => u.eia_id === '3266')?.reason).toMatch(/^gated: .*\(row cmp-maine\)$/);
  });
});
