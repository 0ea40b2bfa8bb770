// `outage sources check`: everything the tests verify about a registry file, as problems with line numbers.
// Row shape and ids come from parseRegistry (the one row schema); this module adds the checks a shipped registry
// needs (spec: Resources — Source; issue "Real national coverage", parts 1, 2 and 6).
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.ts';
import { checkEia, eiaIds } from './eia-reference.ts';
import { checkEvidence } from './evidence.ts';
import { REGISTRY_CSV, REQUIRED_COLUMNS, parseRegistry, type RegistryProblem } from './registry.ts';
import { type CheckProblem, type CheckRow, type Finding, SHIPPED_COLUMNS } from './findings.ts';
import { type CheckOptions, checkFixture, jsonFixtureParser } from './fixtures.ts';
import { checkStatus, checkUrl, optionsOf } from './url-check.ts';

/** The header's line number and names (the first line that is neither blank nor a `#` comment). */
function headerOf(text: string): { line: number; names: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const i = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  return { line: i + 1, names: i < 0 ? [] : lines[i].split(',').map((s) => s.trim()) };
}

/** parseRegistry's messages are `column: message` joined by `; `; split them back so each names its column. */
function registryFindings(problems: RegistryProblem[]): Map<number, Finding[]> {
  const byLine = new Map<number, Finding[]>();
  for (const p of problems) {
    const parts = p.message.split(/; (?=[a-z_]+(?:\.[\w.]+)?: )/).map((part): Finding => {
      const m = /^([a-z_]+)(?:\.[\w.]+)?: ([\s\S]*)$/.exec(part);
      return { severity: 'error', column: m && m[1] !== 'row' ? m[1] : null, message: m ? m[2] : part };
    });
    byLine.set(p.line, [...(byLine.get(p.line) ?? []), ...parts]);
  }
  return byLine;
}

export interface CheckReport {
  problems: CheckProblem[];
  rows: number;
  /** rows per status (`(empty)` for none) */
  by_status: Record<string, number>;
}

/** Every problem in a registry text, in line order. Throws UsageError only when the text is not CSV at all. */
export function checkRegistry(text: string, options: CheckOptions): CheckReport {
  const shipped = options.shipped ?? true;
  const header = headerOf(text);
  const at =
    (line: number, id: string | null) =>
    (f: Finding): CheckProblem => ({ line, id, ...f });
  const missing = REQUIRED_COLUMNS.filter((c) => !header.names.includes(c));
  const absent = shipped ? SHIPPED_COLUMNS.filter((c) => !header.names.includes(c)) : [];
  const problems = [
    ...missing.map(
      (c): Finding => ({
        severity: 'error',
        column: c,
        message: `required column \`${c}\` is missing from the header`,
      }),
    ),
    ...absent.map(
      (c): Finding => ({
        severity: 'error',
        column: c,
        message: `column \`${c}\` is missing; a shipped registry carries every one of ${SHIPPED_COLUMNS.join(', ')} (--local checks a test registry)`,
      }),
    ),
  ].map(at(header.line, null));
  if (missing.length) return { problems, rows: 0, by_status: {} };
  const rows = rowsOf(text, shipped);
  const parseFixture = options.parseFixture ?? jsonFixtureParser();
  for (const row of rows) {
    const findings = [
      ...row.rejected,
      ...checkStatus(row, shipped),
      ...checkUrl(row, shipped),
      ...checkEia(row, options.eia, shipped),
      ...checkFixture(row, { fixtureRoot: options.fixtureRoot, parseFixture, shipped, eia: options.eia }),
      ...checkEvidence(row, shipped, options.samples ?? null),
    ];
    problems.push(...findings.map(at(row.line, row.id || null)));
  }
  problems.push(...sharedEiaIds(rows), ...yieldTargets(rows));
  if (!options.eia)
    problems.push(
      at(
        0,
        null,
      )({
        severity: 'warning',
        column: 'eia_id',
        message: 'the EIA-861 reference files are not available: eia_id, customers and states were not checked',
      }),
    );
  if (!options.fixtureRoot)
    problems.push(
      at(
        0,
        null,
      )({
        severity: 'warning',
        column: 'fixture',
        message: 'the fixture directory (../shared/data) is not available: fixtures were not checked',
      }),
    );
  const by_status: Record<string, number> = {};
  for (const r of rows) by_status[r.status || '(empty)'] = (by_status[r.status || '(empty)'] ?? 0) + 1;
  return { problems: problems.sort((a, b) => a.line - b.line), rows: rows.length, by_status };
}

/** The records with their line numbers, each joined to its SourceDef, or to parseRegistry's findings when rejected. */
function rowsOf(text: string, shipped: boolean): Array<CheckRow & { rejected: Finding[] }> {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, REGISTRY_CSV);
  } catch (err) {
    throw new UsageError(`The source registry is not valid CSV: ${(err as Error).message}`);
  }
  const registry = parseRegistry(text, { allStatuses: true });
  const rejected = registryFindings(registry.problems);
  const sources = new Map(registry.sources.map((s) => [s.id, s]));
  const seen = new Map<string, number>();
  return records.map(({ record, info }) => {
    const status = (record.status ?? '').trim();
    const active = status === 'active' || (status === '' && !shipped);
    const bad = rejected.get(info.lines);
    // A gated or disabled row may name a platform no connector reads yet: that is why it is not active. The status
    // column is checkStatus's, should parseRegistry learn to read it too.
    const findings = (bad ?? [])
      .filter((f) => f.column !== 'status')
      .map(
        (f): Finding =>
          f.column === 'connector' && !active
            ? { ...f, severity: 'warning', message: `${f.message}; fine while the row is ${status || 'not active'}` }
            : f,
      );
    const id = record.id ?? '';
    const first = seen.get(id);
    if (first === undefined) seen.set(id, info.lines);
    else if (!findings.some((f) => f.column === 'id'))
      findings.push({
        severity: 'error',
        column: 'id',
        message: `\`${id}\` appears twice (first on line ${first}); ids must be unique`,
      });
    return {
      line: info.lines,
      id,
      record,
      status,
      active,
      source: bad ? null : (sources.get(id) ?? null),
      rejected: findings,
    };
  });
}

/** One eia_id in at most one active deep (non-ODIN) row, so no utility is counted twice. */
function sharedEiaIds(rows: CheckRow[]): CheckProblem[] {
  const first = new Map<number, CheckRow>();
  const out: CheckProblem[] = [];
  for (const row of rows.filter((r) => r.active && r.record.connector !== 'odin')) {
    for (const id of new Set(eiaIds(row).ids)) {
      const prev = first.get(id);
      if (!prev) first.set(id, row);
      else
        out.push({
          line: row.line,
          id: row.id,
          severity: 'error',
          column: 'eia_id',
          message: `${id} already has an active row (\`${prev.id}\`, line ${prev.line}); one utility is polled by one deep row: disable one, or give each row only its own eia_id`,
        });
    }
  }
  return out;
}

/**
 * A row that yields to a credential (`options.yields_to_credential`) steps aside for a credentialed row of the same
 * utility: some row must name that variable in its `credential_env` and share an eia_id, else the row would stop
 * polling for nothing when the variable is set.
 */
function yieldTargets(rows: CheckRow[]): CheckProblem[] {
  const out: CheckProblem[] = [];
  for (const row of rows) {
    const name = optionsOf(row).yields_to_credential;
    if (name === undefined) continue;
    const ids = new Set(eiaIds(row).ids);
    const target = rows.find(
      (r) => r !== row && optionsOf(r).credential_env === name && eiaIds(r).ids.some((id) => ids.has(id)),
    );
    if (typeof name === 'string' && target) continue;
    out.push({
      line: row.line,
      id: row.id,
      severity: 'error',
      column: 'options',
      message: `options.yields_to_credential \`${JSON.stringify(name)}\` names no row of the same utility (eia_id) whose options.credential_env is that variable`,
    });
  }
  return out;
}

/** Reads and checks a registry file; a file that cannot be read is a UsageError. */
export function checkRegistryFile(file: string, options: CheckOptions): CheckReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read the source registry \`${file}\`: ${(err as Error).message}`);
  }
  return checkRegistry(text, options);
}
