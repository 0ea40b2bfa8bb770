// `outage upload --to s3://bucket/prefix`: ships the published generations to an S3-compatible store (AWS S3 behind
// CloudFront, Cloudflare R2, MinIO), uploading only what changed since the last upload to that target. The options
// are in upload-options.ts, which the CLI loads for every command; this module (and the S3 client) when one uploads.
import { log } from './common.ts';
import { ObjectStore, ObjectStoreError, parseTarget, targetId } from '../publish/object-store.ts';
import { uploadTree, type PartUpload, type UploadStats } from '../publish/object-store-upload.ts';
import { UsageError } from '../errors.ts';

/** The target the options name, or null when `--to` (`--upload-to`) is absent. */
export function openTarget(
  raw: Record<string, unknown>,
  prefix = '',
): { store: ObjectStore; concurrency: number } | null {
  const opt = (name: string) => {
    const key = `${prefix}${name}`.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    return raw[key] === undefined || raw[key] === false ? undefined : String(raw[key]);
  };
  const to = opt('to');
  if (!to) return null;
  const concurrency = Number(opt('concurrency') ?? 16);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256)
    throw new UsageError(
      `Expected --${prefix}concurrency to be a whole number from 1 to 256, got \`${opt('concurrency')}\`.`,
    );
  const target = parseTarget(to, {
    endpoint: opt('endpoint'),
    region: opt('region'),
    ...(opt('virtual-hosted') ? { pathStyle: false } : {}),
  });
  return { store: new ObjectStore(target), concurrency };
}

const part = (name: string, p: PartUpload) =>
  p.status === 'uploaded'
    ? `${name} ${p.objects} objects, ${p.files + p.entries} files (${p.entries} entry points), ${p.deleted} deleted, ${(p.bytes / 1e6).toFixed(1)} MB${p.rebuilt ? ', state rebuilt from the listing' : ''}`
    : `${name} ${p.status}`;

export const formatUpload = (s: UploadStats, target: string): string =>
  `upload to ${target}: ${part('live', s.live)} · ${part('history', s.history)} · ${part('archive', s.archive)} · ${s.requests} requests · ${s.ms} ms`;

/**
 * For `outage poll --upload-to`: an upload after each cycle. A failed upload is logged and left to the next cycle
 * (the state file remembers what did complete); `strict` (poll --once) lets it fail the command instead.
 */
export function cycleUploader(
  outDir: string,
  raw: Record<string, unknown>,
): { afterCycle(strict?: boolean): Promise<void>; close(): void } | null {
  const t = openTarget(raw, 'upload-');
  if (!t) return null;
  const { store, concurrency } = t;
  const name = targetId(store.target);
  return {
    async afterCycle(strict = false) {
      try {
        log(formatUpload(await uploadTree(outDir, store, { concurrency }), name));
      } catch (err) {
        if (strict || !(err instanceof ObjectStoreError || err instanceof UsageError)) throw err;
        log(`upload to ${name} failed, retried after the next cycle: ${err.message}`);
      }
    },
    close: () => store.close(),
  };
}

/** `outage upload`: the whole upload to the target the options name. */
export async function runUpload(outDir: string, raw: Record<string, unknown>): Promise<void> {
  const t = openTarget(raw);
  if (!t) throw new UsageError('Expected --to s3://bucket/prefix: the bucket (and key prefix) to upload to.');
  const { store, concurrency } = t;
  try {
    log(formatUpload(await uploadTree(outDir, store, { concurrency }), targetId(store.target)));
  } finally {
    store.close();
  }
}
