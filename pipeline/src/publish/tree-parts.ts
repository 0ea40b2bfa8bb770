// The published tree's layout on disk: its three parts, each part's manifest (`.manifest*.json`, the generation) and
// content-addressed objects (`.objects*/ab/<sha>`). The writer (tree-writer.ts), the mirror (mirror.ts), the upload
// and every reader of a generation find them here.
import fs from 'node:fs';
import path from 'node:path';
import type { Coding } from '../contract/encodings.ts';

/** The byte length of each sibling an object has (the manifest entry's `encodings`). */
export type Encodings = Partial<Record<Coding, number>>;

export interface ManifestEntry {
  /** hash of the change-detection basis (the content without generated_at) */
  hash: string;
  /** content hash of the stored bytes: the object's name and the ETag */
  object: string;
  bytes: number;
  generated_at: string;
  /** the object's precompressed siblings and their lengths (`<object>.br`, `<object>.gz`); absent: none */
  encodings?: Encodings;
}

export interface Manifest {
  generation: string;
  published_at: string;
  simulated: boolean;
  notice: string;
  files: Record<string, ManifestEntry>;
  /** objects this generation stopped using; deleted when the next generation is published */
  garbage: string[];
  /**
   * the garbage objects that have precompressed siblings (the others' siblings are not looked for when they are
   * deleted); absent in manifests written before it, whose garbage is searched for siblings
   */
  garbage_siblings?: string[];
}

/**
 * Three independent trees share the output directory and its URL space: `live` (rewritten by every cycle), `history`
 * (the annual reports and their charts: hundreds of thousands of files that change only when history grows) and
 * `archive` (the archive's finished days and the function layer's per-county month series: written once a day, never
 * rewritten, growing with every day). Each has its own manifest, objects and mirror state, so a cycle rewrites only
 * the live manifest.
 */
export type TreePart = 'live' | 'history' | 'archive';
/** In the order a reader looks a path up: a path two parts list is the first one's. */
export const TREE_PARTS: readonly TreePart[] = ['live', 'history', 'archive'];
const SUFFIX: Record<TreePart, string> = { live: '', history: '-history', archive: '-archive' };
export const manifestName = (part: TreePart = 'live') => `.manifest${SUFFIX[part]}.json`;
export const MANIFEST = manifestName('live');
const objectsDir = (part: TreePart) => `.objects${SUFFIX[part]}`;
export const objectsRoot = (outDir: string, part: TreePart = 'live'): string => path.join(outDir, objectsDir(part));

export function readManifest(outDir: string, part: TreePart = 'live'): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, manifestName(part)), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

export function objectPath(outDir: string, object: string, part: TreePart = 'live'): string {
  return path.join(outDir, objectsDir(part), object.slice(0, 2), object);
}
