// Issue 37 part 1, and its date findings: no request can hold the server. The far-future range that looped forever
// answers 400 and /healthz after it; dates are real calendar dates inside the documented years; a `{date}` path that is
// not one is a 400 in the one error shape with nothing in the log; a query past its budget answers 503 `busy` with
// Retry-After; /healthz and prebuilt files are answered while the heaviest allowed query runs 16 at once; a request
// line of 16 KB or more gets a 431 with the error body. Real sockets (the server in this thread, and on its own).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/serve/app.ts';
import type { FunctionLimits } from '../src/serve/function-pool.ts';
import { archiveMonthDoc } from '../src/publish/archive.ts';
import { objectPath, readManifest } from '../src/publish/tree-parts.ts';
import { startServer } from '../src/serve/server.ts';
import { startServerInWorker, type RunningServer } from '../src/serve/worker-server.ts';
import { ARCHIVE_FIPS, writeArchiveTree, YEAR_SERIES } from './archive-tree.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const dir = makeTempDir('serve-budgets');
const outDir = path.join(dir, 'public');
const heldDir = path.join(dir, 'held');
const servers: RunningServer[] = [];
let app: ReturnType<typeof createApp>;
let held: HeldDocument | undefined;

beforeAll(async () => {
  await writeArchiveTree(outDir);
  await writeArchiveTree(heldDir);
  held = holdDocument(heldDir, archiveMonthDoc('2026-06'));
  app = createApp({ outDir });
});
// The FIFO is fed first: a thread blocked reading it would not stop (nor let its server close).
afterAll(() =>
  closeAll(
    () => held?.feed(),
    ...servers.map((s) => () => s.close()),
    () => removeTempDir(dir),
  ),
);

async function serving(functionLimits?: FunctionLimits): Promise<RunningServer> {
  const server = await startServer({ outDir, port: 0, functionLimits });
  servers.push(server);
  return server;
}

const errorOf = async (res: Response) =>
  ((await res.json()) as { data: { error: Record<string, unknown> } }).data.error;

describe('one GET cannot freeze the server (the day loop past 9999-12-31)', () => {
  it('answers a far-future range with a 400 in the error shape, and /healthz after it', async () => {
    // On its own thread: before the fix the loop never ended, and this thread must stay free to see the request hang.
    const server = await startServerInWorker({ outDir, port: 0 });
    servers.push(server);
    const series = `${server.url}/api/v1/archive/counties/${ARCHIVE_FIPS}`;
    for (const q of ['to=9999-12-31T00:00:00Z', 'from=9999-12-30T00:00:00Z&to=9999-12-31T00:00:00Z']) {
      const res = await fetch(`${series}?${q}`);
      expect(res.status, q).toBe(400);
      expect(await errorOf(res), q).toMatchObject({
        status: 400,
        code: 'invalid_parameter',
        message: expect.stringMatching(/years run from 2014 to \d{4}; got 9999/),
      });
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${series}?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z`)).status).toBe(200);
  });
});

describe('dates are parsed strictly: a real calendar date, with its zone, inside the documented years', () => {
  const CASES: Array<[string, string, RegExp]> = [
    ['/api/v1/archive/map?at=2026-02-30T00:00:00Z', 'at', /2026-02-30 is not a calendar date \(February 2026 has 28/],
    [`/api/v1/archive/counties/${ARCHIVE_FIPS}?from=2026-02-29T00:00:00Z`, 'from', /not a calendar date/],
    ['/api/v1/events?since=2026-02-30', 'since', /not a calendar date/],
    ['/api/v1/archive/map?at=2026-09-01T10:15', 'at', /with its zone/],
    ['/api/v1/archive/map?at=2026-09-01T24:00:00Z', 'at', /not a time of day/],
    ['/api/v1/archive/map?at=2013-12-31T23:00:00Z', 'at', /years run from 2014/],
    [`/api/v1/archive/counties/${ARCHIVE_FIPS}?to=+010000-01-01T00:00:00Z`, 'to', /ISO-8601 time/],
  ];

  it('refuses every impossible or out-of-window date with a 400 naming the parameter', async () => {
    for (const [url, param, message] of CASES) {
      const res = await app.request(url);
      expect(res.status, url).toBe(400);
      expect(await errorOf(res), url).toMatchObject({
        code: 'invalid_parameter',
        param,
        message: expect.stringMatching(message),
      });
    }
  });

  it('reads a real leap day as itself (a 404 for a quarter the archive lacks, never March 1)', async () => {
    const res = await app.request('/api/v1/archive/map?at=2024-02-29T10:00:00Z');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toMatch(/No archived quarter hour at 2024-02-29T10:00:00.000Z/);
  });
});

describe('a `{date}` path that is not a date (issue 37: 500 and a stack trace for %2f, .., %00)', () => {
  const BAD = ['%2f', '..%2f..%2fetc%2fpasswd', '%00', '2026-09-01%00', 'a.b', '2026-02-30', '9999-12-31'];

  it('is a 400 with the one error shape, in every format, and writes nothing to the log', async () => {
    const logged = vi.spyOn(console, 'error');
    for (const date of BAD)
      for (const format of ['', '?format=csv']) {
        const res = await app.request(`/api/v1/archive/days/${date}${format}`);
        expect(res.status, date).toBe(400);
        expect(await errorOf(res), date).toMatchObject({ status: 400, code: 'invalid_parameter', param: 'date' });
      }
    expect(logged).not.toHaveBeenCalled();
  });

  it('is never a 500 through a real socket, raw `..` and NUL included', async () => {
    const logged = vi.spyOn(console, 'error');
    const server = await serving();
    for (const p of [
      '/api/v1/archive/days/..',
      '/api/v1/archive/days/%2e%2e%2f%2e%2e',
      '/api/v1/archive/days/%00.csv',
    ]) {
      const status = Number((await rawRequest(server.url, `GET ${p} HTTP/1.1`)).split(' ')[1]);
      expect([400, 404], p).toContain(status);
    }
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('the per-request budget of the function layer', () => {
  it('answers a query past its budget with 503 `busy` and Retry-After, and replaces the thread it stopped', async () => {
    const server = await serving({ threads: 1, budgetMs: 1, maxWaiting: 4 });
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}${YEAR_SERIES}`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await errorOf(res)).toMatchObject({ status: 503, code: 'busy', message: expect.stringMatching(/budget/) });
    }
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/archive`)).status).toBe(200);
  });

  it('keeps /healthz and prebuilt files answered while the heaviest allowed query runs 16 at once', async () => {
    // The 16 are held for as long as the test wants: the month document they read is a FIFO, so the thread reading it
    // blocks until the test writes it. Whatever answers meanwhile is not waiting for them (before: nothing did).
    const server = await startServerInWorker({
      outDir: heldDir,
      port: 0,
      functionLimits: { threads: 1, budgetMs: 600_000, maxWaiting: 64 },
    });
    servers.push(server);
    let answered = 0;
    const heavy = Array.from({ length: 16 }, () =>
      fetch(`${server.url}${YEAR_SERIES}`).then(async (r) => {
        await r.arrayBuffer();
        answered += 1;
        return r.status;
      }),
    );
    try {
      await held!.reader();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const file = await fetch(`${server.url}/api/v1/archive`);
      expect([file.status, (await file.json()).data.days.at(-1).day]).toEqual([200, '2026-11-29']);
      expect(answered).toBe(0); // all 16 still held
    } finally {
      held!.feed();
    }
    expect(await Promise.all(heavy)).toEqual(Array(16).fill(200));
  });
});

describe('a request line of 16 KB or more (issue 37: a 431 with no body)', () => {
  it('gets a 431 with the one error body', async () => {
    const server = await serving();
    const answer = await rawRequest(server.url, `GET /api/v1/live/summary?q=${'a'.repeat(16 * 1024)} HTTP/1.1`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 431 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(body)).toEqual({
      data: { error: { status: 431, code: 'headers_too_large', message: expect.stringMatching(/16,384 bytes/) } },
    });
  });
});

interface HeldDocument {
  /** waits until a thread has the FIFO open to read the document (it is blocked there until `feed`) */
  reader(): Promise<void>;
  /** writes the document to its reader (once), which ends the block */
  feed(): void;
}

/** Replaces a published document's object file with a FIFO that holds its reader until `feed`. */
function holdDocument(treeDir: string, rel: string): HeldDocument {
  const entry = readManifest(treeDir)!.files[rel];
  const file = objectPath(treeDir, entry.object);
  const body = fs.readFileSync(file);
  fs.rmSync(file);
  execFileSync('mkfifo', [file]);
  let writer: number | null = null;
  // A write-only open that does not wait: it fails (ENXIO) until some thread has the FIFO open for reading.
  const tryOpen = () => {
    try {
      writer ??= fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch {
      // no reader yet
    }
    return writer;
  };
  let fed = false;
  return {
    async reader() {
      while (tryOpen() === null) await new Promise((r) => setTimeout(r, 20));
    },
    feed() {
      if (fed || tryOpen() === null) return;
      fed = true;
      new net.Socket({ fd: writer!, readable: false }).end(body);
    },
  };
}

/** One request written as is (no URL normalisation), the answer read until the server closes the socket. */
function rawRequest(base: string, requestLine: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`${requestLine}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
  });
}
