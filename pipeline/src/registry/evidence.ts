// The registry's `evidence` column (issue 23 part 4): what proves a row's feed is read right. `own`: a real capture
// of this row's own feed is one of its fixtures; `platform`: only another utility's capture of the same platform,
// with a public source showing this row's URL in use named in `provenance`; `none`: no real capture at all (a
// hand-made sample or nothing). An `own` row whose fixture puts counties outside the utility's territory is an error.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.ts';
import { fromRoot } from '../package-root.ts';
import type { CheckRow, Finding, Severity } from './findings.ts';
import { EVIDENCE, type Evidence, type SourceDef } from '../sources/source-def.ts';

/** The recorded files judged hand-made or edited (the recorded data's README): a fixture in it is no capture. */
export const FIXTURE_SAMPLES_FILE = fromRoot('data/fixture-samples.csv');

/** The `fixture` paths of data/fixture-samples.csv. */
export function loadFixtureSamples(file = FIXTURE_SAMPLES_FILE): Set<string> {
  try {
    const rows = parse(readFileSync(file), { columns: true, skip_empty_lines: true, bom: true, trim: true });
    return new Set((rows as Array<{ fixture: string }>).map((r) => r.fixture));
  } catch (err) {
    throw new UsageError(`Cannot read the list of sample fixtures \`${file}\`: ${(err as Error).message}`);
  }
}

/** The row's fixture paths: the `fixture` column lists several separated by `;` (the row's own captures first). */
export const fixturesOf = (record: Record<string, string>): string[] =>
  (record.fixture ?? '')
    .split(';')
    .map((f) => f.trim())
    .filter(Boolean);

export const evidenceOf = (row: Pick<CheckRow, 'record'>): Evidence | null => {
  const v = (row.record.evidence ?? '').trim();
  return (EVIDENCE as readonly string[]).includes(v) ? (v as Evidence) : null;
};

/**
 * The column's own rules: a known value on every shipped row; `own` needs a fixture, `platform` a provenance; and,
 * where the samples are known (data/fixture-samples.csv), `own` or `platform` a fixture that is a real capture, `none`
 * none that is.
 */
export function checkEvidence(row: CheckRow, shipped: boolean, samples: ReadonlySet<string> | null = null): Finding[] {
  if (row.record.evidence === undefined) return []; // no such column: the header's finding says so once
  const raw = row.record.evidence.trim();
  if (raw === '' && !shipped) return [];
  const bad = (message: string, severity: Severity = row.active ? 'error' : 'warning'): Finding[] => [
    { severity, column: 'evidence', message },
  ];
  const evidence = evidenceOf(row);
  if (!evidence) return bad(`evidence \`${raw}\` is not one of ${EVIDENCE.join(', ')}`);
  if (evidence === 'own' && fixturesOf(row.record).length === 0)
    return bad('evidence is `own` but the row names no fixture: name the real capture of its feed');
  if (evidence === 'platform' && !(row.record.provenance ?? '').trim())
    return bad('evidence is `platform`: name the public source showing this URL in use in `provenance`');
  return samples ? checkSamples(row, evidence, samples, bad) : [];
}

/** Evidence against the samples list: a claim of a real capture needs one, and `none` has none. */
function checkSamples(
  row: CheckRow,
  evidence: Evidence,
  samples: ReadonlySet<string>,
  bad: (message: string, severity?: Severity) => Finding[],
): Finding[] {
  const fixtures = fixturesOf(row.record);
  const real = fixtures.filter((f) => !samples.has(f));
  if (evidence !== 'none' && fixtures.length > 0 && real.length === 0)
    return bad(
      `evidence is \`${evidence}\` but every fixture is a hand-made or edited sample (data/fixture-samples.csv): make it \`none\`, or name a real capture`,
    );
  if (evidence === 'none' && real.length > 0)
    return bad(
      `evidence is \`none\` but ${real[0]} is a real capture (not in data/fixture-samples.csv): say \`own\` or \`platform\``,
      'warning',
    );
  return [];
}

/** Counties outside the territory: an error for an `own` row (its own capture must fit), a warning otherwise. */
export const territorySeverity = (row: Pick<CheckRow, 'record' | 'active'>): Severity =>
  evidenceOf(row) === 'own' && row.active ? 'error' : 'warning';

/**
 * The row as its fixture is read. A `platform` row's fixture is another utility's capture, whose attributes carry
 * that utility's names, not the row's: read with the row's own field names, every count would be unreadable (before
 * issue 36 they were read as 0, a replay that proved nothing). It is read with the platform's own default names (the
 * row's `fields` mapping set aside), which proves the platform's shape; the row's own names are proven by a probe.
 */
export function fixtureSource<S extends Pick<SourceDef, 'evidence' | 'options'>>(source: S): S {
  if (source.evidence !== 'platform' || !source.options.fields) return source;
  const { fields: _fields, ...options } = source.options;
  return { ...source, options };
}
