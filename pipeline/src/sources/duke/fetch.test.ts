// The Duke request over real HTTP on 127.0.0.1: a loopback upstream that, like Duke's API, refuses a request without
// the right Authorization and answers with it (the recorded Florida list, summary_* folded back to the wire form).
// The credential lives in a test-only variable; a saved probe must not hold it, and its replay needs none.
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
import { recordedRaw } from './recorded.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/outage-maps/v1/counties';
const VAR = 'OUTAGE_TEST_CREDENTIAL_DUKE';
const SECRET = 'test-consumer-key:test-consumer-secret';
const EXPECTED = `Basic ${Buffer.from(SECRET).toString('base64')}`;
const hits: Array<{ url: string; authorization?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answer: unknown = { data: [], errorMessages: [] };
let dir = '';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData)
    answer = recordedRaw(sharedJson('payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json'));
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (!req.url?.startsWith(`${PATH}?jurisdiction=`)) return void res.writeHead(404).end();
    if (req.headers.authorization !== EXPECTED && req.headers.authorization !== 'Bearer token-1')
      return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"fault":"Invalid ApiKey"}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
  dir = makeTempDir('duke-probe');
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

const source = (query = '?jurisdiction=DEF', p = PATH) =>
  sourceDef({
    id: 'duke-florida',
    connector: 'duke',
    utility: 'Duke Energy Florida',
    states: ['FL'],
    url: `${base}${p}${query}`,
    options: { credential_env: VAR },
  });
const ctx = (def = source()) => ({
  http: client.forSource(undefined, sourceHeaders(def.options)),
  source: def,
  priority: 0,
});

describe('duke fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(fetch(ctx())).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR} in the environment`)),
    });
    expect(hits).toEqual([{ url: `${PATH}?jurisdiction=DEF`, authorization: undefined }]);
  });

  it('says the value was refused when the variable holds a wrong one', async () => {
    vi.stubEnv(VAR, 'wrong:value');
    await expect(fetch(ctx())).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/value of .* was refused/),
    });
  });

  it.skipIf(!hasSharedData)('answers with it: key:secret is sent as HTTP Basic, the answer is the raw', async () => {
    vi.stubEnv(VAR, SECRET);
    const c = ctx();
    const raw = await fetch(c);
    expect(hits).toEqual([{ url: `${PATH}?jurisdiction=DEF`, authorization: EXPECTED }]);
    expect(raw).toEqual(answer);
    expect(normalize(raw, c.source)).toMatchObject({ customers_out: 25_391, customers_served: 1_838_222 });
  });

  it('sends a whole header value as it is', () => {
    expect(authorizationOf('Bearer token-1')).toBe('Bearer token-1');
    expect(authorizationOf(EXPECTED)).toBe(EXPECTED);
    expect(authorizationOf(SECRET)).toBe(EXPECTED);
  });

  it('rejects a url that is not one jurisdiction’s counties list before any request', async () => {
    vi.stubEnv(VAR, SECRET);
    for (const def of [source(''), source('?jurisdiction='), source('?jurisdiction=DEF', '/outage-maps/v1/outages')])
      await expect(fetch(ctx(def))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/jurisdiction/),
      });
    expect(hits).toEqual([]);
  });

  it.skipIf(!hasSharedData)('a saved probe holds no trace of the credential, and replays without it', async () => {
    vi.stubEnv(VAR, 'Bearer token-1');
    const run = await probeSource(source(), LOOPBACK_HTTP);
    expect(run.error).toBeNull();
    expect(hits.map((h) => h.authorization)).toEqual(['Bearer token-1']);
    saveProbe(dir, run);
    for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain('token-1');
    expect(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).source.options).toEqual({
      credential_env: VAR,
    });
    vi.stubEnv(VAR, '');
    const saved = loadProbe(dir);
    const replay = await replayProbe(saved, savedSourceDef(saved, { connector: 'duke' }));
    expect(replay.snapshot).toEqual(run.snapshot);
    expect(hits).toHaveLength(1); // the replay never reached the upstream
  });
});
