import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from './http.ts';

let server: http.Server;
let base = '';
let conditionalHits = 0;

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
  it('reads a missing resource (404) as null where absence is normal, but not a server error', async () => {
    expect(await view().getJsonOrNull(`${base}/missing`)).toBeNull();
    await expect(view().getJsonOrNull(`${base}/500`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
  });
});
