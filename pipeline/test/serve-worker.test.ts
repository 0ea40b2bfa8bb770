// The server on its own thread (`outage start`): it answers the page while this thread is blocked (as a poll cycle
// blocks it), and the account endpoints, reached over RPC, answer exactly as the in-process app does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { PublishedTree } from '../src/publish/published-tree.ts';
import { createApp } from '../src/serve/app.ts';
import { startServer } from '../src/serve/server.ts';
import { startServerInWorker, type RunningServer } from '../src/serve/worker-server.ts';
import { AccountService } from '../src/accounts/service.ts';
import { smtpMailer } from '../src/accounts/mailer.ts';
import { UsageError } from '../src/errors.ts';
import { smtpSink, testDb } from './accounts-support.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const dir = makeTempDir('serve-worker');
const outDir = path.join(dir, 'public');
const servers: RunningServer[] = [];
const clock = manualClock(new Date('2026-09-01T04:00:00Z'));

beforeAll(async () => {
  // One small SIMULATED cycle, published: what a later `outage start` serves at once.
  const sim = new Simulator({ clock, seed: 1, epoch: new Date('2026-09-01T00:00:00Z'), sources: 6 });
  let pipeline: Pipeline | undefined;
  try {
    await sim.start();
    pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir,
      sources: parseRegistry(sim.registryCsv()).sources,
      clock,
      simulated: true,
      http: LOOPBACK_HTTP,
    });
    await pipeline.cycle({ all: true });
  } finally {
    await closeAll(
      () => pipeline?.close(),
      () => sim.stop(),
    );
  }
});

afterAll(async () => {
  await closeAll(...servers.map((s) => () => s.close()), () => removeTempDir(dir));
});

/** Fetches `paths` from another process and writes status and body of each to `file` (renamed in when complete). */
function fetchElsewhere(base: string, paths: string[], file: string): void {
  const script = `
    const out = [];
    for (const p of ${JSON.stringify(paths)}) {
      const r = await fetch(${JSON.stringify(base)} + p);
      out.push({ path: p, status: r.status, body: await r.text() });
    }
    require('node:fs').writeFileSync(process.argv[1] + '.part', JSON.stringify(out));
    require('node:fs').renameSync(process.argv[1] + '.part', process.argv[1]);`;
  spawn(process.execPath, ['-e', `(async () => {${script}})()`, file], { stdio: 'ignore' }).unref();
}

/** Blocks this thread (no event loop turn) until `file` exists, at most `limitMs` (a guard against a hang). */
function blockUntil(file: string, limitMs: number): boolean {
  const end = Date.now() + limitMs;
  while (Date.now() < end) if (fs.existsSync(file)) return true;
  return false;
}

describe('the server on its own thread', () => {
  it('answers / and the live map while the main thread is blocked', async () => {
    const server = await startServerInWorker({ outDir, port: 0 });
    servers.push(server);
    const file = path.join(dir, 'answers.json');
    fetchElsewhere(server.url, ['/', '/api/v1/live/map'], file);
    // The main thread never yields here: only a server on another thread can answer.
    expect(blockUntil(file, 60_000)).toBe(true);
    const answers = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ path: string; status: number; body: string }>;
    expect(answers.map((a) => [a.path, a.status])).toEqual([
      ['/', 200],
      ['/api/v1/live/map', 200],
    ]);
    expect(answers[0].body).toContain('id="map-figure"');
    expect(answers[0].body).toMatch(/id="simulated-banner"[^>]*role="note">/); // shown, not hidden
    // The live map is the published document, byte for byte.
    const published = new PublishedTree(outDir).read('api/v1/live/map.json');
    expect(published).not.toBeNull();
    expect(answers[1].body).toBe(published!.body.toString('utf8'));
  });

  it('closing it closes the port and ends the thread', async () => {
    const server = await startServerInWorker({ outDir, port: 0 });
    expect((await fetch(`${server.url}/api/v1/live/map`)).status).toBe(200);
    await server.close();
    await expect(fetch(`${server.url}/api/v1/live/map`)).rejects.toThrow();
  });

  it('a port in use is the same UsageError as in process', async () => {
    const first = await startServer({ outDir, port: 0 });
    try {
      const port = Number(new URL(first.url).port);
      const second = startServerInWorker({ outDir, port });
      await expect(second).rejects.toThrow(UsageError);
      await expect(second).rejects.toThrow(`Port ${port} is in use`);
    } finally {
      await first.close();
    }
  });
});

describe('account requests over RPC', () => {
  let smtp: Awaited<ReturnType<typeof smtpSink>>;
  let drop: () => Promise<void>;
  let svc: AccountService;
  let worker: RunningServer;
  let local: ReturnType<typeof createApp>;

  beforeAll(async () => {
    const db = await testDb();
    drop = db.drop;
    smtp = await smtpSink();
    svc = new AccountService({
      sql: db.sql,
      mailer: smtpMailer(smtp.url, 'alerts@outage.test'),
      baseUrl: 'https://outage.test',
      clock,
      safety: { allowLoopback: false },
    });
    local = createApp({ outDir, accounts: svc });
    worker = await startServerInWorker({ outDir, port: 0, accounts: svc });
  });
  afterAll(async () => {
    await closeAll(
      () => worker?.close(),
      () => smtp?.close(),
      () => drop?.(),
    );
  });

  type Answer = { status: number; body: unknown; headers: Record<string, string | null> };
  const read = async (res: Response): Promise<Answer> => {
    const text = await res.text();
    const headers = Object.fromEntries(
      ['content-type', 'cache-control', 'www-authenticate', 'retry-after'].map((h) => [h, res.headers.get(h)]),
    );
    return { status: res.status, body: text ? JSON.parse(text) : null, headers };
  };
  const init = (method: string, body?: unknown, key?: string): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  /** The same request to the in-process app (the account service called directly) and to the thread (over RPC). */
  const both = async (method: string, url: string, body?: unknown, key?: string) => ({
    local: await read(await local.request(url, init(method, body, key))),
    worker: await read(await fetch(`${worker.url}${url}`, init(method, body, key))),
  });

  it('answer with the same status, body and headers, errors included', async () => {
    const unauth = await both('GET', '/api/v1/account');
    expect(unauth.worker.status).toBe(401);
    expect(unauth.worker).toEqual(unauth.local);
    const badEmail = await both('POST', '/api/v1/accounts', { email: 'not an address' });
    expect(badEmail.worker.status).toBe(400);
    expect(badEmail.worker).toEqual(badEmail.local);

    const email = 'rpc@example.org';
    const signup = await fetch(`${worker.url}/api/v1/accounts`, init('POST', { email }));
    expect(signup.status).toBe(202);
    // A second code within a minute: 429 with Retry-After, from either side.
    const again = await both('POST', '/api/v1/accounts', { email });
    expect(again.worker.status).toBe(429);
    expect(again.worker.headers['retry-after']).not.toBeNull();
    expect(again.worker).toEqual(again.local);
    const mail = smtp.mails.filter((m) => m.to === email).at(-1);
    expect(mail).toBeDefined();
    const code = /code is (\d{8})/.exec(mail!.text)![1];
    const verified = await read(await fetch(`${worker.url}/api/v1/accounts/verify`, init('POST', { email, code })));
    expect(verified.status).toBe(200);
    const key = (verified.body as { data: { api_key: { key: string } } }).data.api_key.key;

    const me = await both('GET', '/api/v1/account', undefined, key);
    expect(me.worker.status).toBe(200);
    expect((me.worker.body as { data: { account: { email: string } } }).data.account.email).toBe(email);
    expect(me.worker).toEqual(me.local);

    const rule = {
      name: 'Palm Beach',
      scope: { kind: 'county', fips: '12099' },
      kinds: ['outage_began'],
      channels: [{ type: 'email', to: email }],
    };
    const created = await read(await fetch(`${worker.url}/api/v1/rules`, init('POST', rule, key)));
    expect(created.status).toBe(201);
    const rules = await both('GET', '/api/v1/rules', undefined, key);
    expect((rules.worker.body as { data: { rules: unknown[] } }).data.rules).toHaveLength(1);
    expect(rules.worker).toEqual(rules.local);
    const badRule = await both('POST', '/api/v1/rules', { ...rule, scope: { kind: 'county', fips: '123' } }, key);
    expect(badRule.worker.status).toBe(400);
    expect(badRule.worker).toEqual(badRule.local);
    const unknown = await both('DELETE', '/api/v1/rules/rule_nothere', undefined, key);
    expect((unknown.worker.body as { data: { error: { code: string } } }).data.error.code).toBe('unknown_rule');
    expect(unknown.worker).toEqual(unknown.local);
  });

  it('an account database that failed to open is the same 500 on both sides', async () => {
    const failed = Promise.reject(new Error('the account database did not open'));
    failed.catch(() => {}); // each request awaits it
    const app = createApp({ outDir, accounts: failed });
    const thread = await startServerInWorker({ outDir, port: 0, accounts: failed });
    try {
      const a = await read(await app.request('/api/v1/account'));
      const b = await read(await fetch(`${thread.url}/api/v1/account`));
      expect(b.status).toBe(500);
      expect(b).toEqual(a);
    } finally {
      await thread.close();
    }
  });
});
