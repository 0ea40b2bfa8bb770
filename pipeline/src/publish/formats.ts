// One writer per format behind a small interface: each turns a document into bytes plus its change-detection basis.
import { stringify } from 'csv-stringify/sync';
import type { TreeWriter } from './tree-writer.ts';

/** JSON in the `data` envelope; `generated_at` leads `data` and is left out of the change basis. */
export function putJson(w: TreeWriter, rel: string, data: Record<string, unknown>): void {
  const basis = Buffer.from(JSON.stringify(data));
  w.put(rel, (generatedAt) => Buffer.from(JSON.stringify({ data: { generated_at: generatedAt, ...data } })), basis);
}

/**
 * JSON in the `data` envelope with nothing added: a map whose every member is an entry (`/live/map`: spec, "an entry for
 * every county currently out, and also for every state"). Its time travels in Last-Modified and ETag.
 */
export function putEntries(w: TreeWriter, rel: string, data: Record<string, unknown>): void {
  const body = Buffer.from(JSON.stringify({ data }));
  w.put(rel, () => body, body);
}

/** A raw JSON document (the OpenAPI document), not wrapped. */
export function putRawJson(w: TreeWriter, rel: string, doc: unknown): void {
  const body = Buffer.from(JSON.stringify(doc, null, 2));
  w.put(rel, () => body, body);
}

/** CSV with a header row; the `generated_at` column (if any) is filled at render time and left out of the basis. */
export function putCsv(
  w: TreeWriter,
  rel: string,
  columns: readonly string[],
  rows: (generatedAt: string) => unknown[][],
): void {
  const basis = Buffer.from(
    stringify(rows(''), { header: true, columns: [...columns], cast: { boolean: (b) => String(b) } }),
  );
  w.put(
    rel,
    (g) =>
      Buffer.from(stringify(rows(g), { header: true, columns: [...columns], cast: { boolean: (b) => String(b) } })),
    basis,
  );
}

export function putText(w: TreeWriter, rel: string, text: string): void {
  const body = Buffer.from(text);
  w.put(rel, () => body, body);
}

export const envelopeBasis = (data: Record<string, unknown>, meta: Record<string, unknown>) =>
  Buffer.from(JSON.stringify({ data, meta }));

/** JSON with `meta` beside `data` (the county areas, incidents and alerts endpoints: spec Response envelope). */
export function putEnvelope(
  w: TreeWriter,
  rel: string,
  data: Record<string, unknown>,
  meta: Record<string, unknown>,
  basis = envelopeBasis(data, meta),
): void {
  w.put(
    rel,
    (generatedAt) => Buffer.from(JSON.stringify({ data: { generated_at: generatedAt, ...data }, meta })),
    basis,
  );
}

/** A raw JSON document that carries its generation time somewhere inside (GeoJSON metadata.generated). */
export function putRenderedJson(w: TreeWriter, rel: string, build: (generatedAt: string) => unknown): void {
  w.put(rel, (generatedAt) => Buffer.from(JSON.stringify(build(generatedAt))), Buffer.from(JSON.stringify(build(''))));
}
