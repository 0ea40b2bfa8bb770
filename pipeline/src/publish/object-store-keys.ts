// The bucket layout an upload writes, and each key's Content-Type and Cache-Control (from the catalogue, as the
// Vercel config and the local server use them).
import { CACHE_CONTROL, CONTENT_TYPE } from '../contract/catalogue.ts';
import { fileRoute } from '../contract/urls.ts';
import type { TreePart } from './tree-parts.ts';
import type { PutHeaders } from './object-store.ts';

/**
 * Two layers under the prefix:
 * - the plain files at their public paths (`api/v1/…`, `feeds/…`, `llms.txt`): what the CDN serves, each replaced in
 *   place (one PUT is atomic: a reader gets the old body or the new one);
 * - the generations: `_tree/<part>/objects/<sha>` (immutable bodies named by content hash, as in `.objects/`) and
 *   `_tree/<part>/manifest.json` (the manifest naming them). A reader that reads the manifest and then its objects
 *   gets exactly one generation: objects are uploaded before the manifest naming them, and deleted only one
 *   generation after the last manifest that named them.
 */
export const TREE_DIR = '_tree';
export const objectKey = (part: TreePart, object: string) => `${TREE_DIR}/${part}/objects/${object}`;
export const manifestKey = (part: TreePart) => `${TREE_DIR}/${part}/manifest.json`;
export const isTreeKey = (key: string, part: TreePart) => key.startsWith(`${TREE_DIR}/${part}/`);

/** Content-addressed bodies never change under their name: a CDN may keep them for a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The manifest is the switch between generations: every reader asks the origin whether it changed. */
export const MANIFEST_HEADERS: PutHeaders = {
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'no-cache',
};

// Files outside the catalogue (the function layer's internal `_` files) are JSON read by our own code.
const INTERNAL: PutHeaders = { contentType: CONTENT_TYPE.json, cacheControl: CACHE_CONTROL.live };

export interface FileClass extends PutHeaders {
  /**
   * An entry point: a file of a catalogue entry without path parameters (the summary, the map, the indexes, feeds,
   * the OpenAPI document) that lists or links to keyed files. Keyed files are uploaded before entry points, so a
   * reader following an entry point's links never meets a file that is not there yet.
   */
  entry: boolean;
}
const memo = new Map<string, FileClass>();

/**
 * A public file's headers, from the catalogue entry and format it answers (fileRoute), and whether it is an entry
 * point. The answer depends only on the entry and format, never on a path parameter's digits, so it is remembered per
 * path shape: a 200,000-file history tree costs a few hundred route matches, not 200,000.
 */
export function classify(rel: string): FileClass {
  const shape = rel.replace(/\d+/g, '0');
  let c = memo.get(shape);
  if (!c) {
    const r = fileRoute(rel);
    c = r
      ? {
          contentType: CONTENT_TYPE[r.format],
          cacheControl: CACHE_CONTROL[r.endpoint.cache],
          entry: !r.endpoint.path.includes('{'),
        }
      : { ...INTERNAL, entry: false };
    memo.set(shape, c);
  }
  return c;
}
