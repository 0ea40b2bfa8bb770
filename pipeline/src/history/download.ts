// `outage import <kind> URL`: the file is streamed to a temporary file (keeping its name, which the importers use
// for years and messages), imported like a local file, then deleted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Agent, interceptors, request } from 'undici';
import { UsageError } from '../errors.ts';

export async function fetchToFile(url: string): Promise<{ file: string; cleanup: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-import-'));
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'download').replace(/[^\w.-]/g, '_');
  const file = path.join(dir, name);
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const dispatcher = new Agent({ headersTimeout: 30_000, bodyTimeout: 120_000 }).compose(
      interceptors.redirect({ maxRedirections: 5 }),
    );
    const res = await request(url, { dispatcher });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new UsageError(`Could not download ${url}: HTTP ${res.statusCode}. Nothing was imported.`);
    }
    await pipeline(res.body, fs.createWriteStream(file));
    return { file, cleanup };
  } catch (err) {
    cleanup();
    if (err instanceof UsageError) throw err;
    throw new UsageError(`Could not download ${url}: ${(err as Error).message}. Nothing was imported.`);
  }
}
