// Rewrites the figures of data/sources.md (between its markers) and data/uncovered-utilities.csv from the edited
// registry data/sources.csv and the committed coverage tables (pipeline/src/registry/summary.ts). Run after editing
// the registry: npx tsx scripts/registry-summary.ts. pipeline/test/registry-summary.test.ts fails while they differ.
import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';
import { fromRoot } from '../pipeline/src/package-root.ts';
import { coverageFor } from '../pipeline/src/coverage/document.ts';
import {
  SUMMARY_MARKERS,
  UNCOVERED_COLUMNS,
  registrySummary,
  uncoveredRows,
} from '../pipeline/src/registry/summary.ts';

/** The page with the text between the markers replaced. */
export function withSummary(page: string, summary: string): string {
  const [start, end] = SUMMARY_MARKERS;
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`data/sources.md lacks the markers ${start} … ${end}`);
  return `${page.slice(0, a + start.length)}\n${summary}\n${page.slice(b)}`;
}

const registry = fromRoot('data/sources.csv');
const coverage = coverageFor(registry);
const page = fromRoot('data/sources.md');
fs.writeFileSync(page, withSummary(fs.readFileSync(page, 'utf8'), registrySummary(registry, coverage)));
fs.writeFileSync(
  fromRoot('data/uncovered-utilities.csv'),
  stringify(uncoveredRows(coverage), { header: true, columns: [...UNCOVERED_COLUMNS] }),
);
console.log('data/sources.md (figures) and data/uncovered-utilities.csv rewritten from data/sources.csv');
