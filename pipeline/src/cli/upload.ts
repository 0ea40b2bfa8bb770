// `outage upload --to s3://bucket/prefix`: ships the published generations to an S3-compatible store (AWS S3 behind
// CloudFront, Cloudflare R2, MinIO), uploading only what changed since the last upload to that target.
import { Option, type Command } from 'commander';
import { addCommonOptions, log, parseCommon } from './common.ts';
import { ObjectStore, ObjectStoreError, parseTarget, targetId } from '../publish/object-store.ts';
import { uploadTree, type PartUpload, type UploadStats } from '../publish/object-store-upload.ts';
import { UsageError } from '../errors.ts';

/**
 * Adds the target options to a command: `--to`, `--endpoint` … for `outage upload`; with `prefix` `upload-` they are
 * `--upload-to`, `--upload-endpoint` … (for `outage poll`, whose own options they must not shadow).
 */
export function addTargetOptions(cmd: Command, prefix = ''): Command {
  return cmd
    .addOption(
      new Option(
        `--${prefix}to <s3-url>`,
        'target bucket and key prefix, e.g. s3://outage-data/site (credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or an AWS profile)',
      ),
    )
    .addOption(new Option(`--${prefix}endpoint <url>`, 'S3-compatible endpoint (MinIO, R2 …); absent: AWS S3'))
    .addOption(new Option(`--${prefix}region <name>`, 'region (default: AWS_REGION, else us-east-1; R2 takes `auto`)'))
    .addOption(
      new Option(`--${prefix}virtual-hosted`, 'bucket as a host name (default with an endpoint: path-style URLs)'),
    )
    .addOption(new Option(`--${prefix}concurrency <n>`, 'upload requests in flight at once').default('16'));
}

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
  `upload to ${target}: ${part('live', s.live)} · ${part('history', s.history)} · ${s.requests} requests · ${s.ms} ms`;

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

export function register(program: Command): void {
  addTargetOptions(
    addCommonOptions(
      program
        .command('upload')
        .description('upload the published tree to an S3-compatible bucket: only what changed, entry points last'),
    ),
  ).action(async (raw: Record<string, unknown>) => {
    const cfg = parseCommon(raw);
    const t = openTarget(raw);
    if (!t) throw new UsageError('Expected --to s3://bucket/prefix: the bucket (and key prefix) to upload to.');
    const { store, concurrency } = t;
    try {
      log(formatUpload(await uploadTree(cfg.out, store, { concurrency }), targetId(store.target)));
    } finally {
      store.close();
    }
  });
}
