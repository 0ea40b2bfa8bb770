// The Hawaiian Electric request over real HTTP on 127.0.0.1: a loopback upstream that, like HECO's API, refuses a
// request without the right bearer token and answers with it (the peer's sample) and an HTTP Date. The credential
// lives in a test-only variable; a saved probe must not hold it, and its replay needs none.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testTempDir } from '../../../test/clean-machine.ts';
import { hasSharedData } from '../../../test/shared-data.ts';
import { LOOPBACK_HTTP } from '../http.ts';
import { probeSource, saveProbe } from '../../registry/probe.ts';
import { loadProbe, replayProbe, savedSourceDef } from '../../registry/replay.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { authorizationOf, fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/api/v1/outages';
const VAR = 'OUTAGE_TEST_CREDENTIAL_HECO';
const TOKEN = 'test-token-7f3a';
const DATE = 'Wed, 24 Jun 2026 22:00:00 GMT'; // noon in Honolulu
const answer = recordedJson<unknown>('payloads/heco/sample.json', { outages: [] });
const kit = connectorKit(
  { fetch, normalize },
  { id: 'heco', connector: 'heco', utility: 'Hawaiian Electric', states: ['HI'], options: { credential_env: VAR } },
  {
    refuse: (r) =>
      r.url === PATH && r.headers.authorization !== `Bearer ${TOKEN}`
        ? { status: 401, type: 'application/json', body: '{"message":"Unauthorized"}' }
        : undefined,
    routes: { [PATH]: { json: answer, type: 'application/json', headers: { date: DATE } } },
    hit: (r) => ({ url: r.url, authorization: r.headers.authorization }),
  },
);
afterEach(() => {
  vi.unstubAllEnvs();
  kit.hits.length = 0;
});

describe('heco fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(kit.fetch(PATH)).rejects.toMatchObject({
      reason: 'http_status',
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR} in the environment`)),
    });
    expect(kit.hits).toEqual([{ url: PATH, authorization: undefined }]);
  });

  it.skipIf(!hasSharedData)(
    'answers with it: a bare token is sent as Bearer, the answer comes with its Date',
    async () => {
      vi.stubEnv(VAR, TOKEN);
      const { raw, snap } = await kit.poll(PATH);
      expect(kit.hits).toEqual([{ url: PATH, authorization: `Bearer ${TOKEN}` }]);
      expect(raw).toEqual({ captured_at: '2026-06-24T22:00:00.000Z', answer });
      expect(snap.incidents[0].etr).toBe('2026-06-25T01:30:00.000Z');
      expect(authorizationOf(`Bearer ${TOKEN}`)).toBe(`Bearer ${TOKEN}`);
    },
  );

  it('rejects a url that is not the outage list before any request', async () => {
    vi.stubEnv(VAR, TOKEN);
    await expectRefusedUnsent(kit, ['/api/v1/access-token']);
  });

  it.skipIf(!hasSharedData)(
    'a saved probe holds no trace of the token, and replays to the same snapshot without it',
    async () => {
      vi.stubEnv(VAR, TOKEN);
      const dir = testTempDir('heco-probe');
      const run = await probeSource(kit.source(PATH), LOOPBACK_HTTP);
      expect(run.error).toBeNull();
      saveProbe(dir, run);
      for (const f of readdirSync(dir)) expect(readFileSync(path.join(dir, f), 'utf8'), f).not.toContain(TOKEN);
      vi.stubEnv(VAR, '');
      const saved = loadProbe(dir);
      const replay = await replayProbe(saved, savedSourceDef(saved, { connector: 'heco' }));
      expect(replay.snapshot).toEqual(run.snapshot);
      expect(kit.hits).toHaveLength(1); // the replay never reached the upstream
    },
  );
});
