// The options of `outage upload` and of `outage poll --upload-*`, and the upload command itself: what the CLI loads
// for every command. The uploader and the S3 client (upload.ts) load only when an upload runs.
import { Option, type Command } from 'commander';
import { addCommonOptions, parseCommon } from './common.ts';

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

export function register(program: Command): void {
  addTargetOptions(
    addCommonOptions(
      program
        .command('upload')
        .description('upload the published tree to an S3-compatible bucket: only what changed, entry points last'),
    ),
  ).action(async (raw: Record<string, unknown>) => {
    const cfg = parseCommon(raw);
    await (await import('./upload.ts')).runUpload(cfg.out, raw);
  });
}
