// One writer per format behind a small interface: each turns a document into bytes plus its change-detection basis.
import { csvText } from '../contract/csv.ts';
import type { TreeWriter } from './tree-writer.ts';

/**
 * `{"<key>":{"generated_at":"…",` + the rest of `json` (an object serialised by JSON.stringify, whose first member is
 * `<key>` holding an object): the document with its time leading that object, without serialising it again. Large
 * documents (a storm county's 60,000 incidents) are then stringified once per format, not twice.
 */
function withGeneratedAt(json: Buffer, skip: number, head: string, generatedAt: string, tail = ''): Buffer {
  const empty = json[skip] === 0x7d; // `}`: the object has no members to follow the time
  const time = `"generated_at":${JSON.stringify(generatedAt)}${empty ? '' : ','}`;
  return Buffer.concat([Buffer.from(head + time), json.subarray(skip), Buffer.from(tail)]);
}

/** JSON in the `data` envelope; `generated_at` leads `data` and is left out of the change basis. */
export function putJson(w: TreeWriter, rel: string, data: Record<string, unknown>): void {
  const basis = Buffer.from(JSON.stringify(data));
  if ('generated_at' in data)
    return w.put(rel, (g) => Buffer.from(JSON.stringify({ data: { generated_at: g, ...data } })), basis);
  putJsonBasis(w, rel, basis);
}

/** putJson for `data` already serialised (`JSON.stringify(data)`, without generated_at): a document kept between cycles. */
export function putJsonBasis(w: TreeWriter, rel: string, basis: Buffer): void {
  w.put(rel, (generatedAt) => withGeneratedAt(basis, 1, '{"data":{', generatedAt, '}'), basis);
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
  const basis = Buffer.from(csvText(columns, rows('')));
  w.put(rel, (g) => Buffer.from(csvText(columns, rows(g))), basis);
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
  if ('generated_at' in data)
    return w.put(rel, (g) => Buffer.from(JSON.stringify({ data: { generated_at: g, ...data }, meta })), basis);
  // The basis is `{"data":{…},"meta":…}`: the body is it with the time leading `data`.
  w.put(rel, (generatedAt) => withGeneratedAt(basis, '{"data":{'.length, '{"data":{', generatedAt), basis);
}

/** Stands for the generation time while a document is serialised once (no upstream text can hold a NUL and this). */
const TIME_MARK = '\u0000generated-at\u0000';
const MARK_JSON = JSON.stringify(TIME_MARK);

/**
 * A raw JSON document that carries its generation time somewhere inside (GeoJSON metadata.generated), serialised once:
 * the time's first occurrence (it is built before any feature) is replaced, by '' for the basis.
 */
export function putRenderedJson(w: TreeWriter, rel: string, build: (generatedAt: string) => unknown): void {
  const json = JSON.stringify(build(TIME_MARK));
  const at = json.indexOf(MARK_JSON);
  if (at < 0) {
    const body = Buffer.from(json);
    return w.put(rel, () => body, body);
  }
  const basis = Buffer.from(`${json.slice(0, at)}""${json.slice(at + MARK_JSON.length)}`);
  const cut = Buffer.byteLength(json.slice(0, at)) + 1; // between the basis's empty quotes
  w.put(
    rel,
    (g) => Buffer.concat([basis.subarray(0, cut), Buffer.from(JSON.stringify(g).slice(1, -1)), basis.subarray(cut)]),
    basis,
  );
}
