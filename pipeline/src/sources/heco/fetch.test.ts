// The Hawaiian Electric request over real HTTP on 127.0.0.1: a loopback upstream that, like HECO's API, refuses a
// request without the right bearer token and answers with it (the peer's sample) and an HTTP Date. The credential
// lives in a test-only variable; a saved probe must not hold it, and its replay needs none.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { probeSource, saveProbe } from '../probe.ts';
import { loadProbe, replayProbe, savedSourceDef } from '../replay.ts';
import { sourceHeaders } from '../source-http.ts';
import { authorizationOf, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/api/v1/outages';
const VAR = 'OUTAGE_TEST_CREDENTIAL_HECO';
const TOKEN = 'test-token-7f3a';
const DATE = 'Wed, 24 Jun 2026 22:00:00 GMT'; // noon in Honolulu
const hits: Array<{ url: string; authorization?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answer: unknown = { outages: [] };
let dir = '';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) answer = sharedJson('payloads/heco/sample.json');
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (req.url !== PATH) return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${TOKEN}`)
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthorized"}');
    res.writeHead(200, { 'content-type': 'application/json', date: DATE }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
  dir = makeTempDir('heco-probe');
});
afterEach(() => {
  vi.unstubAllEnvs();
  hits.length = 0;
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
    id: 'heco',
    connector: 'heco',
    utility: 'Hawaiian Electric',
    states: ['HI'],
    url: `${base}${p}`,
    options: { credential_env: VAR },
  });
const ctx = (def = source()) => ({
  http: client.forSource(undefined, sourceHeaders(def.options)),
  source: def,
  priority: 0,
});

describe('heco fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(fetch(ctx())).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR} in the environment`)),
    });
    expect(hits).toEqual([{ url: PATH, authorization: undefined }]);
  });

  it.skipIf(!hasSharedData)(
    'answers with it: a bare token is sent as Bearer, the answer comes with its Date',
    async () => {
      vi.stubEnv(VAR, TOKEN);
      const c = ctx();
      const raw = await fetch(c);
      expect(hits).toEqual([{ url: PATH, authorization: `Bearer ${TOKEN}` }]);
      expect(raw).toEqual({ captured_at: '2026-06-24T22:00:00.000Z', answer });
      expect(normalize(raw, c.source).incidents[0].etr).toBe('2026-06-25T01:30:00.000Z');
      expect(authorizationOf(`Bearer ${TOKEN}`)).toBe(`Bearer ${TOKEN}`);
    },
  );

  it('rejects a url that is not the outage list before any request', async () => {
    vi.stubEnv(VAR, TOKEN);
    await expect(fetch(ctx(source('/api/v1/access-token')))).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });

  it.skipIf(!hasSharedData)(
    'a saved probe holds no trace of the token, and replays to the same snapshot without it',
    async () => {
      vi.stubEnv(VAR, TOKEN);
      const run = await probeSource(source(), LOOPBACK_HTTP);
      expect(run.error).toBeNull();
      saveProbe(dir, run);
      for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain(TOKEN);
      vi.stubEnv(VAR, '');
      const saved = loadProbe(dir);
      const replay = await replayProbe(saved, savedSourceDef(saved, { connector: 'heco' }));
      expect(replay.snapshot).toEqual(run.snapshot);
      expect(hits).toHaveLength(1); // the replay never reached the upstream
    },
  );
});
