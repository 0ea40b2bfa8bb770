// The El Paso Electric request over real HTTP on 127.0.0.1: a loopback upstream that, like EPE's API, answers a POST
// only with the right x-api-key, and answers it as an AES-256-GCM envelope of the peer's sample (encrypted here with a
// test key). The credential lives in a test-only variable; a saved probe must not hold either key.
import { createCipheriv, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testTempDir } from '../../../test/clean-machine.ts';
import { hasSharedData } from '../../../test/shared-data.ts';
import { LOOPBACK_HTTP } from '../http.ts';
import { probeSource, saveProbe } from '../../registry/probe.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch, keysOf } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/OmsApi/GetOutages';
const VAR = 'OUTAGE_TEST_CREDENTIAL_ELPASO';
const API_KEY = 'test-api-key-91c2';
const AES_KEY = randomBytes(32);
const answer = recordedJson<unknown>('payloads/el-paso/sample.json', { outages: [] });
/** The upstream answers in the clear instead of in its envelope (a test sets it). */
let plain = false;

function envelope(v: unknown): { data: string; iv: string } {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', AES_KEY, iv);
  const data = Buffer.concat([c.update(JSON.stringify(v), 'utf8'), c.final(), c.getAuthTag()]);
  return { data: data.toString('hex'), iv: iv.toString('hex') };
}

const kit = connectorKit(
  { fetch, normalize },
  {
    id: 'el-paso',
    connector: 'elpaso',
    utility: 'El Paso Electric',
    states: ['TX', 'NM'],
    options: { credential_env: VAR },
  },
  {
    refuse: (r) => (r.method !== 'POST' ? { status: 404 } : undefined),
    routes: {
      [PATH]: (r) =>
        r.headers['x-api-key'] !== API_KEY
          ? { status: 403, type: 'application/json', body: '{"message":"Forbidden"}' }
          : { json: plain ? answer : envelope(answer), type: 'application/json' },
    },
    hit: (r) => ({ url: r.url, method: r.method, key: r.headers['x-api-key'] as string | undefined, body: r.body }),
  },
);
const source = (p = PATH) => kit.source(p);
const both = `${API_KEY};${AES_KEY.toString('hex')}`;
afterEach(() => {
  vi.unstubAllEnvs();
  kit.hits.length = 0;
  plain = false;
});

describe('elpaso fetch', () => {
  it('is refused without the credential, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(kit.fetch(source())).rejects.toMatchObject({
      status: 403,
      message: expect.stringMatching(new RegExp(`set ${VAR} in the environment`)),
    });
    expect(kit.hits).toEqual([{ url: PATH, method: 'POST', key: undefined, body: '{}' }]);
  });

  it.skipIf(!hasSharedData)('POSTs {} with the x-api-key and opens the envelope with the AES key', async () => {
    vi.stubEnv(VAR, both);
    const { raw, snap } = await kit.poll(source());
    expect(kit.hits).toEqual([{ url: PATH, method: 'POST', key: API_KEY, body: '{}' }]);
    expect(raw).toEqual(answer);
    expect(snap.customers_out).toBe((answer as { totalCustAffected: number }).totalCustAffected);
  });

  it('says what to set when the answer is encrypted and the credential holds no AES key; reads a plain answer', async () => {
    vi.stubEnv(VAR, API_KEY);
    await expect(kit.fetch(source())).rejects.toMatchObject({
      reason: 'config',
      message: expect.stringMatching(new RegExp(`encrypted envelope: set ${VAR}`)),
    });
    plain = true;
    expect(await kit.fetch(source())).toEqual(answer);
  });

  it('refuses an envelope the key does not open, a malformed credential and a url that is not GetOutages', async () => {
    vi.stubEnv(VAR, `${API_KEY};${randomBytes(32).toString('hex')}`);
    await expect(kit.fetch(source())).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/does not open/),
    });
    expect(() => keysOf(`${API_KEY};not-hex`)).toThrow(/64 hex digits/);
    await expectRefusedUnsent(kit, [source('/OmsApi/GetCustomers')]);
  });

  it.skipIf(!hasSharedData)('a saved probe holds neither key', async () => {
    vi.stubEnv(VAR, both);
    const dir = testTempDir('elpaso-probe');
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
