// The registry check's vocabulary: a problem on a line (error or warning), the shipped registry's columns, and a
// row as the checks see it. Shared by the check and its parts (url-check, fixtures, evidence, eia-reference).
import { REQUIRED_COLUMNS } from './registry.ts';
import type { SourceDef } from '../sources/source-def.ts';

export type Severity = 'error' | 'warning';
export interface CheckProblem {
  line: number;
  severity: Severity;
  id: string | null;
  column: string | null;
  message: string;
}
export type Finding = Omit<CheckProblem, 'line' | 'id'>;

/** The columns a shipped registry carries besides the required ones (issue "Real national coverage", part 1). */
export const SHIPPED_COLUMNS = [
  'customers',
  'eia_id',
  'platform',
  'customers_source',
  'map_page',
  'provenance',
  'status',
  'status_reason',
  'fixture',
  'evidence',
  'territory_extra',
] as const;
/** The shipped registry's columns in file order (data/sources.csv, the file people edit). */
export const REGISTRY_COLUMNS = [...REQUIRED_COLUMNS, 'options', ...SHIPPED_COLUMNS] as const;

/** One registry row as the checks see it; `source` is null when parseRegistry rejected the row. */
export interface CheckRow {
  line: number;
  id: string;
  record: Record<string, string>;
  status: string;
  active: boolean;
  source: SourceDef | null;
}
