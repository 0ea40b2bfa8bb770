// What the fuzz calls an absurd published value: a count that is negative, fractional, not a safe integer or more
// than twice every US customer; a pct_out outside 0..100; band outside −1..5, magnitude or level outside 0..5; a
// coordinate off the globe; a document that does not match its response schema (NaN is published as null); text
// carrying a control character (tab and line feed aside), a bidirectional override, a non-character or a lone
// surrogate, or longer than any cap of the quarantine step allows (issue 24).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SCHEMAS } from '../../src/contract/schemas.ts';
import { fileRoute } from '../../src/contract/urls.ts';
import { csvParseRows } from 'd3-dsv';
import { xmlProblem } from '../xml-check.ts';

export interface Absurd {
  file: string;
  /** JSON path of the value */
  where: string;
  value: unknown;
  rule: string;
}

/** More than twice every US customer (about 164 million): no count of customers can be this large. */
export const COUNT_MAX = 400_000_000;
const COUNTS = new Set([
  'customers_out',
  'customers_tracked',
  'counties_out',
  'states_out',
  'customers_served',
  'total_customers',
  'customers',
  'utilities',
  'denominator',
  'customers_modelled',
  'customers_served_feed',
  'count',
  'out_lower',
  'out_upper',
  'consecutive_failures',
  'unmatched_names',
  'min_customers',
]);
const PCTS = new Set(['pct_out', 'pct', 'utility_pct_out', 'min_pct']);

type Rule = (v: number) => string | null;
const count: Rule = (v) =>
  Number.isSafeInteger(v) && v >= 0 && v <= COUNT_MAX ? null : 'count: a whole number from 0 to 400,000,000';
const pct: Rule = (v) => (Number.isFinite(v) && v >= 0 && v <= 100 ? null : 'pct_out: from 0 to 100');
const ramp =
  (lo: number): Rule =>
  (v) =>
    Number.isInteger(v) && v >= lo && v <= 5 ? null : `a whole number from ${lo} to 5`;
const RULES: Record<string, Rule> = {
  band: ramp(-1),
  magnitude: ramp(0),
  level: (v) => (Number.isFinite(v) && v >= 0 && v <= 5 ? null : 'level: from 0 to 5'),
  lat: (v) => (Math.abs(v) <= 90 ? null : 'lat: from -90 to 90'),
  lon: (v) => (Math.abs(v) <= 180 ? null : 'lon: from -180 to 180'),
};
const ruleFor = (key: string): Rule | null => (COUNTS.has(key) ? count : PCTS.has(key) ? pct : (RULES[key] ?? null));
/** Positional entries: the live map's [customers_out, pct_out, level, band, magnitude], timeline frames' [customers_out, pct_out, band]. */
const MAP_ENTRY: Rule[] = [count, pct, RULES.level, RULES.band, RULES.magnitude];
const FRAME_ENTRY: Rule[] = [count, pct, RULES.band];

/** Longer than any published text may be: the largest cap (a notice, 2,000) plus notes the pipeline appends. */
export const TEXT_MAX = 4_000;
const UNCLEAN =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\p{Cs}|\p{Noncharacter_Code_Point}/u;
/** The first character no published text may hold (stored text is cleaned at ingest), or null. */
export function uncleanChar(s: string): string | null {
  const c = UNCLEAN.exec(s)?.[0];
  return c === undefined
    ? null
    : `text: U+${c.codePointAt(0)!.toString(16).padStart(4, '0')} (a control character, bidirectional override, non-character or lone surrogate)`;
}
/** What is wrong with a published string of the live documents, or null. */
export const textProblem = (s: string): string | null =>
  uncleanChar(s) ??
  (s.length > TEXT_MAX
    ? `text: ${s.length.toLocaleString('en-US')} characters, more than ${TEXT_MAX.toLocaleString('en-US')}`
    : null);

function walk(v: unknown, where: string, key: string, file: string, out: Absurd[], tuple: Rule[] | null = null): void {
  if (typeof v === 'string') {
    const broken = textProblem(v);
    if (broken) out.push({ file, where, value: v.slice(0, 80), rule: broken });
    return;
  }
  if (typeof v === 'number') {
    const rule = ruleFor(key);
    const broken = !Number.isFinite(v) ? 'a finite number' : (rule?.(v) ?? null);
    if (broken) out.push({ file, where, value: v, rule: broken });
    return;
  }
  if (Array.isArray(v)) {
    if (tuple) {
      v.forEach((x, i) => {
        // pct_out (position 1) may be null; a null elsewhere is a NaN or a lost value
        const broken =
          typeof x === 'number' ? (tuple[i]?.(x) ?? null) : x === null && i === 1 ? null : tuple[i] ? 'a number' : null;
        if (broken) out.push({ file, where: `${where}[${i}]`, value: x, rule: broken });
      });
      return;
    }
    for (const [i, x] of v.entries()) walk(x, `${where}[${i}]`, key, file, out);
    return;
  }
  if (!v || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v)) {
    const entry =
      /(^|\/)live\/map\.json$/.test(file) && /^(\d{5}|[A-Z]{2})$/.test(k)
        ? MAP_ENTRY
        : key === 'states' && /timeline/.test(file)
          ? FRAME_ENTRY
          : null;
    walk(x, `${where}.${k}`, /^(\d{5}|[A-Z]{2})$/.test(k) ? key : k, file, out, entry);
  }
}

let ajv: Ajv2020 | null = null;
const validators = new Map<string, ValidateFunction>();

function schemaProblems(file: string, doc: unknown): Absurd[] {
  const route = fileRoute(file);
  if (route?.format !== 'json') return [];
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: false, strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'api', components: { schemas: SCHEMAS } });
  }
  const name = route.endpoint.schema;
  let validate = validators.get(name);
  if (!validate) validators.set(name, (validate = ajv.getSchema(`api#/components/schemas/${name}`)!));
  if (validate(doc)) return [];
  const e = validate.errors?.[0];
  return [
    { file, where: e?.instancePath ?? '', value: null, rule: `schema ${name}: ${e?.message ?? 'does not match'}` },
  ];
}

/** Every absurd value of one published JSON document (`file` relative to the output root, e.g. api/v1/live/map.json). */
export function absurdValues(file: string, doc: unknown): Absurd[] {
  const out: Absurd[] = [];
  walk(doc, '$', '', file, out);
  out.push(...schemaProblems(file, doc));
  return out;
}

/** A feed that is not well-formed XML, or that marks upstream text as HTML (issue 24). */
export function feedProblems(file: string, xml: string): Absurd[] {
  const problem = xmlProblem(xml) ?? (/type="html"|<!\[CDATA\[/.test(xml) ? 'upstream text marked as HTML' : null);
  return problem ? [{ file, where: '', value: null, rule: `feed: ${problem}` }] : [];
}

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
/** CSV text cells a spreadsheet would evaluate: starting with =, +, -, @, tab or CR and not a number (issue 24). */
export function csvProblems(file: string, csv: string): Absurd[] {
  const out: Absurd[] = [];
  for (const [r, row] of csvParseRows(csv).entries())
    for (const [c, cell] of row.entries())
      if (/^[=+\-@\t\r]/.test(cell) && !NUMBER.test(cell))
        out.push({
          file,
          where: `row ${r} column ${c}`,
          value: cell.slice(0, 80),
          rule: 'csv: a formula-like text cell',
        });
  return out;
}
