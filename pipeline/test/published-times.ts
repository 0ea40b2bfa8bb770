// The walk behind "only past times" (issue 38 part 1): every published document of a tree, each time in it against
// the document's own generated_at (a JSON document's, else the manifest's for the file). The ETR and schedule fields
// are the only times allowed ahead of it, listed here by name.
import fs from 'node:fs';
import { objectPath, readManifest, TREE_PARTS } from '../src/publish/tree-parts.ts';
import { csvParse } from 'd3-dsv';
import { XMLParser } from 'fast-xml-parser';

/**
 * The fields whose times are ahead by nature: a restoration estimate (`etr`, the `previous_etr` an event replaced, an
 * incident's `etr_history[].etr`) and a schedule (a source's `next_due_at`, and `stale_after`, when it will be stale).
 */
export const FUTURE_FIELDS = new Set(['etr', 'previous_etr', 'next_due_at', 'stale_after']);
/**
 * What the walk does not read as data: pictures (PNG charts), the Parquet days (their rows are the CSV days', which
 * are read) and the documentation (the OpenAPI document's examples and llms.txt are not times anything happened).
 */
export const NOT_DATA = /\.(png|parquet)$|^api\/v1\/openapi\.json$|^llms\.txt$/;

/** A time as the tree writes it: ISO 8601 (a day, or a time with or without its zone), EAGLE-I's text, RFC 822. */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const RFC822 = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
/** The instant of a time string, or null when it is not one (a time without a zone is UTC, as every time here is). */
export function instantOf(s: string): number | null {
  const m = ISO.exec(s);
  if (!m) return RFC822.test(s) ? Date.parse(s) : null;
  const zoned = m[1] !== undefined || s.length === 10; // a bare day parses as its UTC midnight
  return Date.parse(zoned ? s : `${s.replace(' ', 'T')}Z`);
}

export interface TimeFound {
  file: string;
  field: string;
  value: string;
  generated_at: string;
}
export interface Walk {
  /** times later than their document's generated_at, outside FUTURE_FIELDS */
  late: TimeFound[];
  /** times checked, by kind of file; and the FUTURE_FIELDS times seen ahead (so the exception is needed) */
  checked: Record<'json' | 'csv' | 'feed', number>;
  futureAllowed: TimeFound[];
  files: number;
}

/** Every file each part's manifest lists (internal ones too), its bytes' path and when the manifest says it was made. */
export function manifestFiles(outDir: string): Array<{ rel: string; file: string; generated_at: string }> {
  return TREE_PARTS.flatMap((part) =>
    Object.entries(readManifest(outDir, part)?.files ?? {}).map(([rel, f]) => ({
      rel,
      file: objectPath(outDir, f.object, part),
      generated_at: f.generated_at,
    })),
  );
}

export function walkTree(outDir: string): Walk {
  const w: Walk = { late: [], checked: { json: 0, csv: 0, feed: 0 }, futureAllowed: [], files: 0 };
  for (const { rel, file, generated_at } of manifestFiles(outDir)) {
    if (NOT_DATA.test(rel)) continue;
    const body = fs.readFileSync(file, 'utf8');
    w.files += 1;
    if (/\.(json|geojson)$/.test(rel)) {
      const doc = JSON.parse(body);
      const own = doc?.data?.generated_at ?? doc?.metadata?.generated_at ?? generated_at;
      visit(w, 'json', rel, own, '', doc);
    } else if (rel.endsWith('.csv')) {
      for (const row of csvParse(body))
        for (const [k, v] of Object.entries(row)) check(w, 'csv', rel, generated_at, k, v ?? '');
    } else if (/\.(rss|atom)$/.test(rel)) {
      visit(
        w,
        'feed',
        rel,
        generated_at,
        '',
        new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(body),
      );
    }
  }
  return w;
}

function visit(w: Walk, kind: keyof Walk['checked'], file: string, gen: string, field: string, v: unknown): void {
  if (typeof v === 'string') check(w, kind, file, gen, field, v);
  else if (Array.isArray(v)) for (const x of v) visit(w, kind, file, gen, field, x);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) visit(w, kind, file, gen, k, x);
}

function check(w: Walk, kind: keyof Walk['checked'], file: string, gen: string, field: string, value: string): void {
  const t = instantOf(value);
  if (t === null) return;
  w.checked[kind] += 1;
  if (t <= Date.parse(gen)) return;
  (FUTURE_FIELDS.has(field) ? w.futureAllowed : w.late).push({ file, field, value, generated_at: gen });
}
