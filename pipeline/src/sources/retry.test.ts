// Retries inside the source deadline: what is retried (network, timeouts, 5xx, 408, 429; never another 4xx, never a
// POST not marked idempotent), Retry-After honoured only when it fits, and the same over real HTTP on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SourceError } from '../errors.ts';
import { HttpClient } from './http.ts';
import { backoffMs, DEFAULT_RETRY, retryable, withRetries } from './retry.ts';

const status = (s: number, retryAfter: number | null = null) =>
  new SourceError('http_status', `HTTP ${s}`, s, retryAfter);

describe('retryable', () => {
  it.each([
    [new SourceError('network', 'ECONNRESET'), true],
    [new SourceError('timeout', 'request deadline'), true],
    [status(500), true],
    [status(503), true],
    [status(408), true],
    [status(429), true],
    [status(400), false],
    [status(403), false],
    [status(404), false],
    [new SourceError('too_large', 'cap'), false],
    [new SourceError('bad_body', 'html'), false],
    [new Error('a bug'), false],
  ])('%s → %s', (err, expected) => expect(retryable(err)).toBe(expected));
});

describe('backoffMs', () => {
  it('takes Retry-After as asked, else a jittered share of the doubling backoff, capped', () => {
    expect(backoffMs(0, status(429, 3), DEFAULT_RETRY)).toBe(3000);
    expect(backoffMs(2, status(503), DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.baseMs * 4);
    expect(backoffMs(2, status(503), DEFAULT_RETRY, () => 0.5)).toBe(DEFAULT_RETRY.baseMs * 2);
    expect(backoffMs(30, status(503), DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxMs);
  });
});

describe('withRetries', () => {
  const far = () => Date.now() + 60_000;
  const quick = { attempts: 4, baseMs: 1, maxMs: 1 };
  const failing = (errors: unknown[]) => {
    let calls = 0;
    const fn = async () => {
      calls += 1;
      if (errors.length) throw errors.shift();
      return 'ok';
    };
    return { fn, calls: () => calls };
  };

  it('retries until an attempt succeeds', async () => {
    const f = failing([status(503), new SourceError('network', 'reset')]);
    await expect(withRetries(f.fn, { idempotent: true, deadlineAt: far() }, quick)).resolves.toBe('ok');
    expect(f.calls()).toBe(3);
  });
  it('gives up after the last attempt with the last failure', async () => {
    const f = failing([status(500), status(502), status(503), status(504), status(500)]);
    await expect(withRetries(f.fn, { idempotent: true, deadlineAt: far() }, quick)).rejects.toMatchObject({
      status: 504,
    });
    expect(f.calls()).toBe(4);
  });
  it('never retries a 4xx other than 408 and 429, nor a request not idempotent', async () => {
    const notFound = failing([status(404)]);
    await expect(withRetries(notFound.fn, { idempotent: true, deadlineAt: far() }, quick)).rejects.toThrow();
    const post = failing([status(503)]);
    await expect(withRetries(post.fn, { idempotent: false, deadlineAt: far() }, quick)).rejects.toThrow();
    expect([notFound.calls(), post.calls()]).toEqual([1, 1]);
  });
  it('does not start a wait that would pass the deadline: the 429 is kept for the scheduler', async () => {
    const f = failing([status(429, 120)]);
    const scope = { idempotent: true, deadlineAt: Date.now() + 5_000 };
    await expect(withRetries(f.fn, scope, quick)).rejects.toMatchObject({ status: 429, retryAfter: 120 });
    expect(f.calls()).toBe(1);
  });
  it('leaves a Retry-After longer than the longest wait to the scheduler, and waits out a short one', async () => {
    const long = failing([status(429, 30)]);
    await expect(withRetries(long.fn, { idempotent: true, deadlineAt: far() })).rejects.toMatchObject({ status: 429 });
    const short = failing([status(503, 0)]);
    await expect(withRetries(short.fn, { idempotent: true, deadlineAt: far() })).resolves.toBe('ok');
    expect([long.calls(), short.calls()]).toEqual([1, 2]);
  });
  it('ends a wait when the source deadline aborts, with the failure that caused it', async () => {
    const ctl = new AbortController();
    const f = failing([status(429, 2)]);
    const pending = withRetries(f.fn, { idempotent: true, deadlineAt: far(), signal: ctl.signal });
    ctl.abort();
    await expect(pending).rejects.toMatchObject({ status: 429 });
  });
});

describe('HttpClient retries over HTTP', () => {
  let server: http.Server;
  let base = '';
  const hits = new Map<string, number>();
  const clients: HttpClient[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const n = (hits.get(req.url ?? '') ?? 0) + 1;
      hits.set(req.url ?? '', n);
      if (req.url === '/flaky' && n <= 2) return void res.writeHead(503).end('busy');
      if (req.url === '/flaky') return void res.end('{"ok":true}');
      if (req.url === '/limited') return void res.writeHead(429, { 'retry-after': '1' }).end();
      if (req.url === '/post') return void res.writeHead(502).end();
      if (req.url === '/garbled') return void res.end(n === 1 ? '<html>maintenance</html>' : '{"ok":true}');
      if (req.url === '/html') return void res.end('<html>captcha</html>');
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  const view = (sourceDeadlineMs = 10_000) => {
    const c = new HttpClient({ sourceDeadlineMs, retry: { attempts: 4, baseMs: 5, maxMs: 20 } });
    clients.push(c);
    return c.forSource();
  };

  it('a GET answered 503 twice succeeds on its third attempt, counted as one request of the poll', async () => {
    const poll = view();
    expect(await poll.getJson(`${base}/flaky`)).toEqual({ ok: true });
    expect([hits.get('/flaky'), poll.requests]).toEqual([3, 1]);
  });
  it('a 404 is asked once; a POST not marked idempotent is sent once', async () => {
    await expect(view().getJsonOrNull(`${base}/gone`)).resolves.toBeNull();
    await expect(view().get(`${base}/post`, 0, { method: 'POST', body: '' })).rejects.toMatchObject({ status: 502 });
    expect([hits.get('/gone'), hits.get('/post')]).toEqual([1, 1]);
  });
  it('a 200 whose body does not parse is read once more; a second bad body fails the poll', async () => {
    expect(await view().getJson(`${base}/garbled`)).toEqual({ ok: true });
    await expect(view().getJson(`${base}/html`)).rejects.toMatchObject({ reason: 'bad_body' });
    expect([hits.get('/garbled'), hits.get('/html')]).toEqual([2, 2]);
  });
  it("a 429 whose Retry-After outlasts the source's deadline fails at once with it", async () => {
    await expect(view(500).get(`${base}/limited`)).rejects.toMatchObject({ status: 429, retryAfter: 1 });
    expect(hits.get('/limited')).toBe(1);
  });
});
