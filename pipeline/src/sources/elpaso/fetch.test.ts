// The El Paso Electric request over real HTTP on 127.0.0.1: a loopback upstream that, like EPE's API, answers a POST
// only with the right x-api-key, and answers it as an AES-256-GCM envelope of the peer's sample (encrypted here with a
// test key). The credential lives in a test-only variable; a saved probe must not hold either key.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCipheriv, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { probeSource, saveProbe } from '../probe.ts';
import { fetch, keysOf } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/OmsApi/GetOutages';
const VAR = 'OUTAGE_TEST_CREDENTIAL_ELPASO';
const API_KEY = 'test-api-key-91c2';
const AES_KEY = randomBytes(32);
const hits: Array<{ url: string; method?: string; key?: string; body: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answer: unknown = { outages: [] };
let plain = false;
let dir = '';

function envelope(v: unknown): { data: string; iv: string } {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', AES_KEY, iv);
  const data = Buffer.concat([c.update(JSON.stringify(v), 'utf8'), c.final(), c.getAuthTag()]);
  return { data: data.toString('hex'), iv: iv.toString('hex') };
}

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) answer = sharedJson('payloads/el-paso/sample.json');
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const key = req.headers['x-api-key'] as string | undefined;
      hits.push({ url: req.url ?? '', method: req.method, key, body });
      if (req.url !== PATH || req.method !== 'POST') return void res.writeHead(404).end();
      if (key !== API_KEY)
        return void res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"Forbidden"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(plain ? answer : envelope(answer)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
  dir = makeTempDir('elpaso-probe');
});
afterEach(() => {
  vi.unstubAllEnvs();
  hits.length = 0;
  plain = false;
});
afterAll(async () => {
  await closeAll(
    () => client.close(),
    () => server.closeAllConnections(),
    () => new Promise((r) => server.close(r)),
    () => removeTempDir(dir),
  );
});

const source = (p = PATH) =>
  sourceDef({
    id: 'el-paso',
    connector: 'elpaso',
    utility: 'El Paso Electric',
    states: ['TX', 'NM'],
    url: `${base}${p}`,
    options: { credential_env: VAR },
  });
const ctx = (def = source()) => ({ http: client.forSource(), source: def, priority: 0 });
const both = `${API_KEY};${AES_KEY.toString('hex')}`;

describe('elpaso fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(fetch(ctx())).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(new RegExp(`set ${VAR} in the environment`)),
    });
    expect(hits).toEqual([{ url: PATH, method: 'POST', key: undefined, body: '{}' }]);
  });

  it.skipIf(!hasSharedData)('POSTs {} with the x-api-key and opens the envelope with the AES key', async () => {
    vi.stubEnv(VAR, both);
    const c = ctx();
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: PATH, method: 'POST', key: API_KEY, body: '{}' }]);
    expect(raw).toEqual(answer);
    expect(normalize(raw, c.source).customers_out).toBe((answer as { totalCustAffected: number }).totalCustAffected);
  });

  it('says what to set when the answer is encrypted and the credential holds no AES key; reads a plain answer', async () => {
    vi.stubEnv(VAR, API_KEY);
    await expect(fetch(ctx())).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(new RegExp(`encrypted envelope: set ${VAR}`)),
    });
    plain = true;
    expect(await fetch(ctx())).toEqual(answer);
  });

  it('refuses an envelope the key does not open, a malformed credential and a url that is not GetOutages', async () => {
    vi.stubEnv(VAR, `${API_KEY};${randomBytes(32).toString('hex')}`);
    await expect(fetch(ctx())).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/does not open/),
    });
    expect(() => keysOf(`${API_KEY};not-hex`)).toThrow(/64 hex digits/);
    hits.length = 0;
    await expect(fetch(ctx(source('/OmsApi/GetCustomers')))).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });

  it.skipIf(!hasSharedData)('a saved probe holds neither key', async () => {
    vi.stubEnv(VAR, both);
    const run = await probeSource(source(), LOOPBACK_HTTP);
    expect(run.error).toBeNull();
    saveProbe(dir, run);
    for (const f of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      expect(text, f).not.toContain(API_KEY);
      expect(text, f).not.toContain(AES_KEY.toString('hex'));
    }
  });
});
