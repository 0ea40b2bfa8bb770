// The source registry: a CSV data file, one row per live source. spec: Resources — Source.
// Required columns: id,utility,state,connector,url,interval_min,tier. Optional: options (JSON), customers.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { findState } from '../geo/states.ts';
import { credentialOf, type Env } from '../sources/credential.ts';
import { CONNECTORS, EVIDENCE, type Evidence, type SourceDef } from '../sources/source-def.ts';

/** How the registry's CSV is read, by the reader and by `sources check`: `#` lines are comments. */
export const REGISTRY_CSV = {
  columns: true,
  skip_empty_lines: true,
  bom: true,
  trim: true,
  info: true,
  relax_column_count: true,
  comment: '#',
} as const;

export const REQUIRED_COLUMNS = ['id', 'utility', 'state', 'connector', 'url', 'interval_min', 'tier'] as const;
/** `status` of a row: only active rows are polled; gated (needs credentials) and disabled rows say why in status_reason. */
export const STATUSES = ['active', 'disabled', 'gated'] as const;

export interface InactiveSource {
  line: number;
  id: string;
  status: 'disabled' | 'gated';
  status_reason: string;
  /** EIA-861 utility numbers of the row's `eia_id` column: coverage says why these utilities are not covered */
  eia_ids: string[];
}

export interface RegistryProblem {
  line: number;
  message: string;
}

export const rowSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'id must be lower-case letters, digits and dashes'),
  utility: z.string().min(1, 'utility is empty'),
  state: z.string().min(2),
  connector: z.enum(CONNECTORS, { error: `connector must be one of ${CONNECTORS.join(', ')}` }),
  url: z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }),
  interval_min: z.coerce.number().int().min(1).max(1440),
  tier: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'tier must be 1, 2 or 3' })),
  options: z.string().optional(),
  customers: z.string().optional(),
  eia_id: z.string().optional(),
  evidence: z.string().optional(),
});

/** `eia_id` split on `;` (as the registry writes several), blanks dropped; registry-check validates the numbers. */
const eiaIdsOf = (v: string | undefined): string[] => (v ?? '').split(/[;|\s]+/).filter(Boolean);

/** A row's options as an object, or null when they are absent or not a JSON object (the row's own check says so). */
function optionsObject(optionsText: string | undefined): Record<string, unknown> | null {
  if (!optionsText) return null;
  try {
    const options: unknown = JSON.parse(optionsText);
    return typeof options === 'object' && options !== null && !Array.isArray(options)
      ? (options as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * A gated row becomes active when its `options.credential_env` names a variable set in `env` (issue 26 part 2): the
 * deployment that sets the credential polls it; without it the row stays gated with its status_reason. An active row
 * whose `options.yields_to_credential` names a variable set in `env` steps aside (disabled) for the credentialed row
 * that covers the same utility, so no utility is polled twice.
 */
export function statusWithCredentials(status: string, optionsText: string | undefined, env: Env): string {
  const options = optionsObject(optionsText);
  if (!options) return status;
  if (status === 'gated') return credentialOf(options, env) ? 'active' : status;
  if (status === 'active' && yieldsTo(options, env)) return 'disabled';
  return status;
}

/** The set variable an active row yields to (`options.yields_to_credential`), or null. */
export function yieldsTo(options: Record<string, unknown>, env: Env): string | null {
  const name = options.yields_to_credential;
  return typeof name === 'string' && env[name]?.trim() ? name : null;
}

/** Why a row is not polled: its status_reason, or, for an active row stepping aside, the credential it yields to. */
function reasonOf(record: Record<string, string>, status: string, env: Env): string {
  const active = (record.status ?? '').trim() !== 'disabled';
  const yielded = status === 'disabled' && active ? yieldsTo(optionsObject(record.options) ?? {}, env) : null;
  return yielded
    ? `steps aside while ${yielded} is set: the credentialed row polls the same utility`
    : (record.status_reason ?? '');
}

/**
 * `allStatuses` validates and returns gated and disabled rows too (`sources check` looks at every row); `env` is where
 * credentials are looked up (statusWithCredentials; default process.env).
 */
export function parseRegistry(
  text: string,
  opts: { allStatuses?: boolean; env?: Env } = {},
): { sources: SourceDef[]; problems: RegistryProblem[]; inactive: InactiveSource[] } {
  const problems: RegistryProblem[] = [];
  const inactive: InactiveSource[] = [];
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, REGISTRY_CSV);
  } catch (err) {
    throw new UsageError(`The source registry is not valid CSV: ${(err as Error).message}`);
  }
  const headerLine =
    text
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/)
      .find((l) => l.trim() !== '' && !l.trimStart().startsWith('#')) ?? '';
  const header = headerLine.split(',').map((s) => s.trim());
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length)
    throw new UsageError(
      `The source registry lacks required column(s) ${missing.join(', ')}; its header is: ${header.join(',')}`,
    );
  const sources: SourceDef[] = [];
  const seen = new Set<string>();
  for (const { record, info } of records) {
    const line = info.lines;
    // empty: active (the example and simulator registries); gated with its credential set: active
    const status = statusWithCredentials(
      (record.status ?? '').trim() || 'active',
      record.options,
      opts.env ?? process.env,
    );
    if (!(STATUSES as readonly string[]).includes(status)) {
      problems.push({ line, message: `status: \`${status}\` is not one of ${STATUSES.join(', ')}` });
      continue;
    }
    if (status !== 'active') {
      inactive.push({
        line,
        id: record.id ?? '',
        status: status as InactiveSource['status'],
        status_reason: reasonOf(record, status, opts.env ?? process.env),
        eia_ids: eiaIdsOf(record.eia_id),
      });
      if (!opts.allStatuses) continue;
    }
    const parsed = rowSchema.safeParse(record);
    if (!parsed.success) {
      problems.push({
        line,
        message: parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; '),
      });
      continue;
    }
    const r = parsed.data;
    const states = r.state
      .split(/[;|\s]+/)
      .filter(Boolean)
      .map((s) => findState(s)?.code);
    if (states.some((s) => !s)) {
      problems.push({
        line,
        message: `state: \`${r.state}\` is not a US state code (use e.g. FL, or NC;VA for several)`,
      });
      continue;
    }
    let options: Record<string, unknown> = {};
    if (r.options) {
      try {
        options = JSON.parse(r.options);
        if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new Error('not an object');
      } catch (err) {
        problems.push({
          line,
          message: `options: expected a JSON object, got \`${r.options}\` (${(err as Error).message})`,
        });
        continue;
      }
    }
    if (seen.has(r.id)) {
      problems.push({ line, message: `id: \`${r.id}\` appears twice; ids must be unique` });
      continue;
    }
    seen.add(r.id);
    const customers = r.customers ? Number(r.customers) : null;
    sources.push({
      id: r.id,
      utility: r.utility,
      states: states as string[],
      connector: r.connector,
      url: r.url,
      interval_min: r.interval_min,
      tier: r.tier as 1 | 2 | 3,
      options,
      customers: customers !== null && Number.isFinite(customers) && customers > 0 ? customers : null,
      eia_ids: eiaIdsOf(r.eia_id),
      evidence: (EVIDENCE as readonly string[]).includes(r.evidence ?? '') ? (r.evidence as Evidence) : null,
    });
  }
  return { sources, problems, inactive };
}

/** The registry file parsed (options as parseRegistry's: `allStatuses`, `env`). */
export function loadRegistry(
  file: string,
  opts: Parameters<typeof parseRegistry>[1] = {},
): ReturnType<typeof parseRegistry> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read the source registry \`${file}\`: ${(err as Error).message}`);
  }
  return parseRegistry(text, opts);
}
