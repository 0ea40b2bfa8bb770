import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readHead, UNCHANGED } from './connector.ts';
import { HttpClient } from './http.ts';
import { sourceDef } from '../../test/shared-data.ts';

let server: http.Server;
let base = '';
let conditionalHits = 0;
/** the body of /pointer, which a test changes; its ETag is its version */
let pointer = { version: 1, path: 'data/1' };
const pointerHits: Array<{ conditional: boolean; status: number }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    switch (req.url) {
      case '/ok':
        return void res.end(JSON.stringify({ ok: true }));
      case '/etag':
        if (req.headers['if-none-match'] === '"v1"') {
          conditionalHits += 1;
          res.writeHead(304);
          return void res.end();
        }
        res.writeHead(200, { ETag: '"v1"' });
        return void res.end(JSON.stringify({ n: 1 }));
      case '/pointer': {
        const etag = `"p${pointer.version}"`;
        const conditional = req.headers['if-none-match'] !== undefined;
        const status = req.headers['if-none-match'] === etag ? 304 : 200;
        pointerHits.push({ conditional, status });
        res.writeHead(status, { ETag: etag });
        return void res.end(status === 304 ? undefined : JSON.stringify(pointer));
      }
      case '/drip':
        res.writeHead(200);
        res.write('{"a":');
        return void setTimeout(() => res.end('1}'), 3000);
      case '/500':
        res.writeHead(503);
        return void res.end('down');
      case '/html':
        return void res.end('<html>maintenance</html>');
      case '/big':
        res.writeHead(200);
        return void res.end('x'.repeat(5000));
      case '/slow':
        return void setTimeout(() => res.end('{}'), 3000);
      default:
        res.writeHead(404);
        return void res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
const clients: HttpClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  server?.closeAllConnections();
  server?.close();
});

describe('HttpClient', () => {
  const client = () => {
    const c = new HttpClient({ bodyTimeoutMs: 300, connectTimeoutMs: 300, maxBytes: 1000 });
    clients.push(c);
    return c;
  };
  const view = () => client().forSource();

  it('fetches JSON', async () => {
    expect(await view().getJson(`${base}/ok`)).toEqual({ ok: true });
  });
  it('sends If-None-Match and reuses the cached body on 304', async () => {
    const c = client();
    expect(await c.forSource().getJson(`${base}/etag`)).toEqual({ n: 1 });
    const poll = c.forSource();
    const again = await poll.get(`${base}/etag`);
    expect(poll.allNotModified).toBe(true);
    expect(again.notModified).toBe(true);
    expect(JSON.parse(again.body)).toEqual({ n: 1 });
    expect(conditionalHits).toBe(1);
  });
  it.each([
    ['/500', 'http_status', /HTTP 503/],
    ['/html', 'bad_body', /did not return JSON/],
    ['/big', 'too_large', /1000-byte cap/],
    ['/slow', 'timeout', /timeout/i],
  ])('%s fails as %s', async (path, reason, msg) => {
    await expect(view().getJson(`${base}${path}`)).rejects.toMatchObject({
      reason,
      message: expect.stringMatching(msg),
    });
  });
  it('fails as network on a closed port', async () => {
    await expect(view().getJson('http://127.0.0.1:1/x')).rejects.toMatchObject({ reason: 'network' });
  });
  it('fails a host that does not resolve at once, as dns, with no retry (issue 38: offline is said at once)', async () => {
    const c = client();
    const view = c.forSource();
    // .invalid never resolves (RFC 2606): the resolver answers at once, without the network.
    await expect(view.getJson('http://outage-feed.invalid/data.json')).rejects.toMatchObject({
      reason: 'dns',
      message: expect.stringMatching(/outage-feed\.invalid does not resolve \(E[A-Z_]+\): .*offline/),
    });
    expect(c.requests).toBe(1); // `dns` is not retried: the host will not resolve in a second either
  });

  it('fails a host that sends no headers after one headers timeout, not retried (issue 37: a dead host)', async () => {
    const c = client();
    await expect(c.forSource().getJson(`${base}/slow`)).rejects.toMatchObject({
      reason: 'timeout',
      message: `${base}/slow: the host sent no headers within the headers timeout (300 ms), not retried`,
    });
    expect(c.requests).toBe(1); // retries would wait the same way, up to four times, eating the source deadline
  });

  it('reads a missing resource (404) as null where absence is normal, but not a server error', async () => {
    expect(await view().getJsonOrNull(`${base}/missing`)).toBeNull();
    await expect(view().getJsonOrNull(`${base}/500`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
  });
  it('ends a request at its total deadline, also while the body is still arriving', async () => {
    const c = new HttpClient({ bodyTimeoutMs: 5000, connectTimeoutMs: 300, requestDeadlineMs: 300 });
    clients.push(c);
    for (const [path, stage] of [
      ['/slow', 'request'],
      ['/drip', 'body'],
    ])
      await expect(c.forSource().getJson(`${base}${path}`)).rejects.toMatchObject({
        reason: 'timeout',
        message: `${base}${path}: no complete answer within the 300 ms request deadline (${stage})`,
      });
  });
  it("ends a request at its source's deadline", async () => {
    const c = new HttpClient({ bodyTimeoutMs: 5000, connectTimeoutMs: 300, sourceDeadlineMs: 250 });
    clients.push(c);
    await expect(c.forSource(AbortSignal.timeout(250)).getJson(`${base}/drip`)).rejects.toMatchObject({
      reason: 'timeout',
      message: expect.stringContaining("the source's 250 ms deadline passed"),
    });
  });
});

describe('cached bodies and the snapshot held', () => {
  const client = () => {
    const c = new HttpClient({ bodyTimeoutMs: 2000, connectTimeoutMs: 300 });
    clients.push(c);
    return c;
  };
  const url = () => `${base}/pointer`;
  const hitsFrom = (n: number) =>
    pointerHits.slice(n).map((h) => `${h.conditional ? 'if-none-match' : 'plain'} ${h.status}`);

  it('keeps them per source: a 304 means "as this source last read it"', async () => {
    const c = client();
    const n = pointerHits.length;
    await c.forSource(undefined, {}, 'a').get(url());
    const b = await c.forSource(undefined, {}, 'b').get(url());
    const a = await c.forSource(undefined, {}, 'a').get(url());
    expect([b.notModified, a.notModified]).toEqual([false, true]);
    expect(hitsFrom(n)).toEqual(['plain 200', 'plain 200', 'if-none-match 304']);
  });

  it('forgets the bodies a failed poll read fresh, so the next poll reads them whole', async () => {
    const c = client();
    const n = pointerHits.length;
    await c.forSource(undefined, {}, 'a').get(url());
    pointer = { version: pointer.version + 1, path: `data/${pointer.version + 1}` };
    const failed = c.forSource(undefined, {}, 'a');
    expect((await failed.get(url())).notModified).toBe(false); // the new pointer, then (say) its data failed
    failed.discard();
    const next = c.forSource(undefined, {}, 'a');
    expect((await next.get(url())).notModified).toBe(false);
    expect(next.allNotModified).toBe(false);
    expect(hitsFrom(n)).toEqual(['plain 200', 'if-none-match 200', 'plain 200']);
  });

  it('forgets an answer that arrives after the poll was discarded', async () => {
    const c = client();
    const late = c.forSource(undefined, {}, 'a');
    const pending = late.get(url());
    late.discard();
    await pending;
    const n = pointerHits.length;
    await c.forSource(undefined, {}, 'a').get(url());
    expect(hitsFrom(n)).toEqual(['plain 200']);
  });

  it('readHead: a 304 with the snapshot held is UNCHANGED and its body is not parsed again', async () => {
    const c = client();
    const source = sourceDef({ connector: 'nisc', url: url() });
    const text = JSON.stringify(pointer);
    const first = await readHead({ http: c.forSource(undefined, {}, 'a'), source, priority: 0, held: false }, url());
    expect(first).toEqual(pointer);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const held = c.forSource(undefined, {}, 'a');
      expect(await readHead({ http: held, source, priority: 0, held: true }, url())).toBe(UNCHANGED);
      expect(held.allNotModified).toBe(true);
      expect(parse.mock.calls.filter(([arg]) => arg === text)).toEqual([]);
      // Without the snapshot held (a restart, a first poll) the cached body is the answer, parsed.
      const again = await readHead({ http: c.forSource(undefined, {}, 'a'), source, priority: 0 }, url());
      expect(again).toEqual(pointer);
      expect(parse.mock.calls.filter(([arg]) => arg === text).length).toBe(1);
    } finally {
      parse.mockRestore();
    }
  });
});
