// What an upload target holds, as far as this machine knows: key → ETag per tree part, written atomically beside the
// published tree, so a cycle that changed nothing uploads nothing and a changed one uploads only its changes.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { UsageError } from '../errors.ts';
import type { TreePart } from './tree-parts.ts';

export interface UploadState {
  version: 1;
  /** targetId: a state is only trusted for the target it was made for */
  target: string;
  /** the generation whose manifest was uploaded last (null: none yet, or a run was cut short) */
  generation: string | null;
  /**
   * every key (relative to the prefix) this machine uploaded and has not deleted, with its ETag: the quoted MD5 of the
   * body, which is what S3, R2 and MinIO answer for a single-part upload (and verified on receipt through Content-MD5)
   */
  keys: Record<string, string>;
  /** the ETag the store answered for the uploaded manifest: the one request an unchanged cycle makes compares it */
  manifest_etag: string | null;
  /** objects the uploaded manifest stopped naming: deleted by the next upload, once no reader can still need them */
  retired: string[];
  /** keys taken out of `keys` whose deletion may not have completed (a kill between the two): deleted first */
  deleting: string[];
}

const DIR = '.uploads';

/** The state file of one target and part: `<out>/.uploads/<hash of the target>-<part>.json`. */
export function statePath(outDir: string, target: string, part: TreePart): string {
  const id = createHash('sha256').update(target).digest('hex').slice(0, 12);
  return path.join(outDir, DIR, `${id}-${part}.json`);
}

export const emptyState = (target: string): UploadState => ({
  version: 1,
  target,
  generation: null,
  keys: {},
  manifest_etag: null,
  retired: [],
  deleting: [],
});

/** The saved state, or null when there is none usable (never uploaded, another target, a torn or older file). */
export function loadState(outDir: string, target: string, part: TreePart): UploadState | null {
  const file = statePath(outDir, target, part);
  sweepTemps(path.dirname(file));
  try {
    const s = JSON.parse(fs.readFileSync(file, 'utf8')) as UploadState;
    return s.version === 1 && s.target === target && s.keys && Array.isArray(s.retired) ? s : null;
  } catch {
    return null;
  }
}

export function saveState(outDir: string, part: TreePart, s: UploadState): void {
  writeFileAtomic(statePath(outDir, s.target, part), JSON.stringify(s));
}

/** Temporary files a kill left behind (atomic-write.ts: every temporary name ends in `.tmp`). */
function sweepTemps(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.endsWith('.tmp')) fs.rmSync(path.join(dir, n), { force: true });
}

/**
 * Runs `fn` as the only upload of `outDir` to `target` (the poll loop's and a manual `outage upload` would otherwise
 * interleave their state files). A lock whose process is gone (a kill) is taken over.
 */
export async function withUploadLock<T>(outDir: string, target: string, fn: () => Promise<T>): Promise<T> {
  const file = statePath(outDir, target, 'live').replace(/-live\.json$/, '.lock');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let tries = 0; ; tries++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) {
        const holder = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '?';
        throw new UsageError(
          `Another upload to ${target} is running (process ${holder}, lock ${file}); wait for it, or delete the lock if that process is gone.`,
        );
      }
      if (!held.has(file) && !alive(Number(fs.readFileSync(file, 'utf8')))) fs.rmSync(file, { force: true });
    }
  }
  held.add(file);
  try {
    return await fn();
  } finally {
    held.delete(file);
    fs.rmSync(file, { force: true });
  }
}

/** Locks this process holds: a lock file naming this pid but not held here is a dead process's (a reused pid). */
const held = new Set<string>();

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
