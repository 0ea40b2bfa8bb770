// The Duke request over real HTTP on 127.0.0.1: a loopback upstream that, like Duke's API, refuses a request without
// the right Authorization and answers with it (the recorded Florida list, summary_* folded back to the wire form).
// The credential lives in a test-only variable; a saved probe must not hold it, and its replay needs none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testTempDir } from '../../../test/clean-machine.ts';
import { hasSharedData, sharedJson } from '../../../test/shared-data.ts';
import { LOOPBACK_HTTP } from '../http.ts';
import { probeSource, saveProbe } from '../../registry/probe.ts';
import { loadProbe, replayProbe, savedSourceDef } from '../../registry/replay.ts';
import { connectorKit, expectRefusedUnsent } from '../test-kit/index.ts';
import { authorizationOf, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';

const PATH = '/outage-maps/v1/counties';
const VAR = 'OUTAGE_TEST_CREDENTIAL_DUKE';
const SECRET = 'test-consumer-key:test-consumer-secret';
const EXPECTED = `Basic ${Buffer.from(SECRET).toString('base64')}`;
const answer = hasSharedData
  ? recordedRaw(sharedJson('payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json'))
  : { data: [], errorMessages: [] };
const kit = connectorKit(
  { fetch, normalize },
  {
    id: 'duke-florida',
    connector: 'duke',
    utility: 'Duke Energy Florida',
    states: ['FL'],
    options: { credential_env: VAR },
  },
  {
    route: (r) => {
      if (!r.url.startsWith(`${PATH}?jurisdiction=`)) return undefined;
      if (r.headers.authorization !== EXPECTED && r.headers.authorization !== 'Bearer token-1')
        return { status: 401, type: 'application/json', body: '{"fault":"Invalid ApiKey"}' };
      return { json: answer, type: 'application/json' };
    },
    hit: (r) => ({ url: r.url, authorization: r.headers.authorization }),
  },
);
const source = (query = '?jurisdiction=DEF', p = PATH) => kit.source(`${p}${query}`);
afterEach(() => {
  vi.unstubAllEnvs();
  kit.hits.length = 0;
});

describe('duke fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(kit.fetch(source())).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR} in the environment`)),
    });
    expect(kit.hits).toEqual([{ url: `${PATH}?jurisdiction=DEF`, authorization: undefined }]);
  });

  it('says the value was refused when the variable holds a wrong one', async () => {
    vi.stubEnv(VAR, 'wrong:value');
    await expect(kit.fetch(source())).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/value of .* was refused/),
    });
  });

  it.skipIf(!hasSharedData)('answers with it: key:secret is sent as HTTP Basic, the answer is the raw', async () => {
    vi.stubEnv(VAR, SECRET);
    const { raw, snap } = await kit.poll(source());
    expect(kit.hits).toEqual([{ url: `${PATH}?jurisdiction=DEF`, authorization: EXPECTED }]);
    expect(raw).toEqual(answer);
    expect(snap).toMatchObject({ customers_out: 25_391, customers_served: 1_838_222 });
  });

  it('sends a whole header value as it is', () => {
    expect(authorizationOf('Bearer token-1')).toBe('Bearer token-1');
    expect(authorizationOf(EXPECTED)).toBe(EXPECTED);
    expect(authorizationOf(SECRET)).toBe(EXPECTED);
  });

  it('rejects a url that is not one jurisdiction’s counties list before any request', async () => {
    vi.stubEnv(VAR, SECRET);
    const rows = [source(''), source('?jurisdiction='), source('?jurisdiction=DEF', '/outage-maps/v1/outages')];
    await expectRefusedUnsent(kit, rows, /jurisdiction/);
  });

  it.skipIf(!hasSharedData)('a saved probe holds no trace of the credential, and replays without it', async () => {
    vi.stubEnv(VAR, 'Bearer token-1');
    const dir = testTempDir('duke-probe');
    const run = await probeSource(source(), LOOPBACK_HTTP);
    expect(run.error).toBeNull();
    expect(kit.hits.map((h) => h.authorization)).toEqual(['Bearer token-1']);
    saveProbe(dir, run);
    for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain('token-1');
    expect(JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')).source.options).toEqual({
      credential_env: VAR,
    });
    vi.stubEnv(VAR, '');
    const saved = loadProbe(dir);
    const replay = await replayProbe(saved, savedSourceDef(saved, { connector: 'duke' }));
    expect(replay.snapshot).toEqual(run.snapshot);
    expect(kit.hits).toHaveLength(1); // the replay never reached the upstream
  });
});
