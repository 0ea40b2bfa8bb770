// Writes /api/v1/coverage (JSON in the data envelope, and CSV: one row per scope) through the tree writer.
import { endpoint } from '../contract/catalogue.ts';
import { fileFor } from '../contract/urls.ts';
import { putCsv, putJson } from '../publish/formats.ts';
import type { TreeWriter } from '../publish/tree-writer.ts';
import { COVERAGE_CSV_COLUMNS, coverageCsvRows, type CoverageData } from './document.ts';

export function publishCoverage(w: TreeWriter, data: CoverageData): void {
  const e = endpoint('coverage');
  putJson(w, fileFor(e, {}, 'json'), data);
  putCsv(w, fileFor(e, {}, 'csv'), COVERAGE_CSV_COLUMNS, (generatedAt) => coverageCsvRows(data, generatedAt));
}
