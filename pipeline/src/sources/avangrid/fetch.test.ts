// The Avangrid requests over real HTTP on 127.0.0.1: a loopback upstream that, like Avangrid's API gateway, refuses a
// request without the `ocp-apim-subscription-key` header and answers with it: the county and town answers rebuilt from
// CMP's 16 July 2026 capture (recorded.ts). The key lives in a test-only variable.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch, filterUrl } from './fetch.ts';
import { normalize } from './normalize.ts';
import { recordedRaw } from './recorded.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/cmp/v1/public/outagedata';
const VAR = 'OUTAGE_TEST_CREDENTIAL_AVANGRID';
const KEY = 'test-subscription-key';
const hits: Array<{ url: string; key?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let answers: { county: unknown; town: unknown } = { county: {}, town: { features: [] } };

beforeAll(async () => {
  loadAtlas();
  if (hasSharedData)
    answers = recordedRaw(sharedJson('payloads/avangrid/cmp-towns-2026-07-16T2116Z.json')) as typeof answers;
  server = http.createServer((req, res) => {
    const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
    hits.push({ url: req.url ?? '', key });
    const u = new URL(req.url ?? '/', 'http://x');
    const filter = u.searchParams.get('filter');
    if (u.pathname !== PATH || (filter !== 'county' && filter !== 'town')) return void res.writeHead(404).end();
    if (key !== KEY)
      return void res
        .writeHead(401)
        .end('{"statusCode":401,"message":"Access denied due to missing subscription key."}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answers[filter]));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
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
  );
});

const source = (pathAndQuery = `${PATH}?filter=county`) =>
  sourceDef({
    id: 'cmp-maine',
    connector: 'avangrid',
    utility: 'Central Maine Power',
    states: ['ME'],
    url: `${base}${pathAndQuery}`,
    options: { credential_env: VAR },
  });
const ctx = (def = source()) => ({
  http: client.forSource(undefined, sourceHeaders(def.options)),
  source: def,
  priority: 0,
});
const sorted = () => hits.map((h) => [h.url, h.key]).sort();

describe('avangrid fetch', () => {
  it('is refused without the key, and the failure names the variable to set', async () => {
    vi.stubEnv(VAR, '');
    await expect(fetch(ctx())).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(new RegExp(`needs a credential: set ${VAR}`)),
    });
    expect(sorted()).toEqual([
      [`${PATH}?filter=county`, undefined],
      [`${PATH}?filter=town`, undefined],
    ]);
  });

  it.skipIf(!hasSharedData)('answers with it: both answers, each with the header, as {county, town}', async () => {
    vi.stubEnv(VAR, KEY);
    for (const url of [`${PATH}?filter=county`, `${PATH}?filter=town`, PATH]) {
      hits.length = 0;
      const c = ctx(source(url));
      const raw = await fetch(c);
      expect(sorted()).toEqual([
        [`${PATH}?filter=county`, KEY],
        [`${PATH}?filter=town`, KEY],
      ]);
      expect(raw).toEqual(answers);
      expect(normalize(raw, c.source)).toMatchObject({ customers_out: 44_340, customers_served: 688_546 });
    }
  });

  it('keeps the rest of the url and sets only the filter', () => {
    expect(filterUrl('https://apim.avangrid.com/cmp/v1/public/outagedata?filter=county', 'town')).toBe(
      'https://apim.avangrid.com/cmp/v1/public/outagedata?filter=town',
    );
  });

  it('rejects a url that is not an outagedata API before any request', async () => {
    vi.stubEnv(VAR, KEY);
    for (const p of ['/cmp/v1/public/other?filter=county', '/outagedata'])
      await expect(fetch(ctx(source(p)))).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });
});
