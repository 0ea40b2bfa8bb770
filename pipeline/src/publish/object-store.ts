// An S3-compatible bucket (AWS S3, Cloudflare R2, MinIO …) as an upload target: `s3://bucket/prefix` parsed once,
// the maintained AWS client, and the few operations the uploader needs, each failing with a message that says what to do.
import { createHash } from 'node:crypto';
import {
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { UsageError } from '../errors.ts';

export interface ObjectStoreTarget {
  bucket: string;
  /** key prefix without a trailing slash ('' for the bucket root) */
  prefix: string;
  /** an S3-compatible endpoint (MinIO, R2, a local server); absent for AWS itself */
  endpoint?: string;
  region: string;
  /** path-style URLs (`endpoint/bucket/key`): what MinIO and most local servers need */
  forcePathStyle: boolean;
}

/** The store refused or failed a request: what was asked, what it answered, what to check. */
export class ObjectStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ObjectStoreError';
  }
}

/** `s3://bucket/prefix` plus options; credentials are never part of it (AWS_* environment, or the AWS profile). */
export function parseTarget(
  url: string,
  opts: { endpoint?: string; region?: string; pathStyle?: boolean } = {},
): ObjectStoreTarget {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m)
    throw new UsageError(
      `Expected --to to be s3://bucket/prefix (a bucket name of 3–63 lower-case letters, digits, dots or dashes), got \`${url}\`.`,
    );
  if (opts.endpoint && !/^https?:\/\/[^/]+/.test(opts.endpoint))
    throw new UsageError(
      `Expected --endpoint to be an http(s) URL such as http://127.0.0.1:9000, got \`${opts.endpoint}\`.`,
    );
  return {
    bucket: m[1],
    prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, ''),
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    region: opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    // Any custom endpoint defaults to path-style: local servers and MinIO have no per-bucket host names.
    forcePathStyle: opts.pathStyle ?? Boolean(opts.endpoint),
  };
}

/** One string naming the target, for the state file (an upload state is only valid for the target it was made for). */
export const targetId = (t: ObjectStoreTarget): string =>
  `s3://${t.bucket}/${t.prefix}${t.endpoint ? ` @ ${t.endpoint}` : ''}`;

export const md5Hex = (body: Buffer): string => createHash('md5').update(body).digest('hex');

export interface PutHeaders {
  contentType: string;
  cacheControl: string;
}

export class ObjectStore {
  readonly client: S3Client;

  constructor(readonly target: ObjectStoreTarget) {
    this.client = new S3Client({
      region: target.region,
      forcePathStyle: target.forcePathStyle,
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      // Checksums only where the API requires them: several S3-compatible stores reject the SDK's default CRC32
      // trailers. Every PUT carries Content-MD5 instead, which every such store verifies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  key(rel: string): string {
    return this.target.prefix ? `${this.target.prefix}/${rel}` : rel;
  }

  /** Stores `body` at `rel`; returns the ETag the store answered (quotes kept), which is the body's MD5. */
  async put(rel: string, body: Buffer, h: PutHeaders): Promise<string> {
    const md5 = createHash('md5').update(body).digest();
    const r = await this.send('put', rel, () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.target.bucket,
          Key: this.key(rel),
          Body: body,
          ContentMD5: md5.toString('base64'),
          ContentType: h.contentType,
          CacheControl: h.cacheControl,
        }),
      ),
    );
    return r.ETag ?? `"${md5.toString('hex')}"`;
  }

  /** The ETag of `rel`, or null when the store has no such key. */
  async etag(rel: string): Promise<string | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: this.key(rel) }));
      return r.ETag ?? null;
    } catch (err) {
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      throw this.failure('check', rel, err);
    }
  }

  /** Deletes keys (relative to the prefix) in batches of 1,000, the API's limit; a missing key is not an error. */
  async remove(rels: string[]): Promise<void> {
    for (let i = 0; i < rels.length; i += 1000) {
      const batch = rels.slice(i, i + 1000);
      const r = await this.send('delete', `${batch.length} keys from ${batch[0]}`, () =>
        this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.target.bucket,
            Delete: { Objects: batch.map((rel) => ({ Key: this.key(rel) })), Quiet: true },
          }),
        ),
      );
      const e = r.Errors?.[0];
      if (e)
        throw new ObjectStoreError(
          `Could not delete ${e.Key} from ${targetId(this.target)}: ${e.Code} ${e.Message ?? ''}`,
        );
    }
  }

  /** Every key under the prefix with its ETag (relative keys), for rebuilding a lost upload state. */
  async list(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const prefix = this.target.prefix ? `${this.target.prefix}/` : '';
    let token: string | undefined;
    do {
      const r = await this.send('list', prefix || '/', () =>
        this.client.send(
          new ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: prefix, ContinuationToken: token }),
        ),
      );
      for (const o of r.Contents ?? []) if (o.Key && o.ETag) out.set(o.Key.slice(prefix.length), o.ETag);
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  close(): void {
    this.client.destroy();
  }

  private async send<T>(what: string, rel: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw this.failure(what, rel, err);
    }
  }

  private failure(what: string, rel: string, err: unknown): ObjectStoreError {
    const t = targetId(this.target);
    const status =
      err instanceof S3ServiceException ? ` (HTTP ${err.$metadata.httpStatusCode ?? '?'} ${err.name})` : '';
    const hint =
      err instanceof S3ServiceException && [401, 403].includes(err.$metadata.httpStatusCode ?? 0)
        ? 'Check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY and that they may write this bucket.'
        : err instanceof S3ServiceException && err.name === 'NoSuchBucket'
          ? `Create the bucket \`${this.target.bucket}\` first.`
          : 'Check --endpoint, the region and the network; the next upload retries what did not complete.';
    return new ObjectStoreError(`Could not ${what} ${rel} on ${t}${status}: ${(err as Error).message}. ${hint}`);
  }
}
