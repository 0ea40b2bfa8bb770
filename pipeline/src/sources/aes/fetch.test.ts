// The AES requests over real HTTP on 127.0.0.1, serving the recorded files at each utility's path. Tested on the peer's
// edited samples only (payloads/aes-indiana/sample.xml, payloads/aes-ohio/sample.xml): values rounded/edited, field
// names as the peer's adapter reads them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, formatOf } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const INDIANA = '/OMSDATA/OMSDATA_OSI.xml';
const OHIO = '/DATA/DPLOMSDATA.xml';
const hits: Array<{ url: string; method?: string; accept?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
const files = new Map<string, string>();

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  // Without the shared data the server answers files without outages, and only the tests that need none run.
  files.set(
    INDIANA,
    hasSharedData ? readFileSync(sharedPath('payloads/aes-indiana/sample.xml'), 'utf8') : '<OutageData/>',
  );
  files.set(OHIO, hasSharedData ? readFileSync(sharedPath('payloads/aes-ohio/sample.xml'), 'utf8') : '<Incidents/>');
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', method: req.method, accept: req.headers.accept });
    // As AES Indiana does: a request that asks for a named type rather than */* is refused.
    if (req.headers.accept !== '*/*') return void res.writeHead(406).end();
    res.setHeader('content-type', 'text/xml');
    const file = files.get(req.url ?? '');
    if (file !== undefined) return void res.end(file);
    if (req.url === `${OHIO}?html=1`) return void res.end('<!DOCTYPE html><html><body>Down for maintenance</body>');
    if (req.url === `${OHIO}?other=1`) return void res.end('<OutageData><Incidents/></OutageData>');
    res.writeHead(503).end('<html>busy</html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const source = (path: string, states = ['OH']) =>
  sourceDef({ connector: 'aes' as never, utility: 'AES', states, url: `${base}${path}` });
const ctx = (path: string, states?: string[]) => ({
  http: client.forSource(),
  source: source(path, states),
  priority: 0,
});

describe('aes fetch', () => {
  it('one GET per file, sent with Accept */*; the raw is the form and the text as served', async () => {
    hits.length = 0;
    const ind = await fetch(ctx(INDIANA, ['IN']));
    const oh = await fetch(ctx(OHIO));
    expect(hits).toEqual([
      { url: INDIANA, method: 'GET', accept: '*/*' },
      { url: OHIO, method: 'GET', accept: '*/*' },
    ]);
    expect(ind).toEqual({ format: 'indiana', xml: files.get(INDIANA) });
    expect(oh).toEqual({ format: 'ohio', xml: files.get(OHIO) });
  });

  it.skipIf(!hasSharedData)('normalises what it fetched as the recorded files read', async () => {
    const c = ctx(INDIANA, ['IN']);
    const snap = normalize(await fetch(c), c.source);
    const xml = files.get(INDIANA) as string;
    expect(snap.customers_out).toBe(Number(/<TotalCustAffected>(\d+)</.exec(xml)?.[1]));
    expect(snap.incidents).toHaveLength(xml.split('<Marker>').length - 1);
    const o = ctx(OHIO);
    const ohio = normalize(await fetch(o), o.source);
    const counts = [...(files.get(OHIO) as string).matchAll(/<TOTALCUSTS>(\d+)</g)].map((m) => Number(m[1]));
    expect(ohio.customers_out).toBe(counts.reduce((s, n) => s + n, 0));
    expect(ohio.incidents.map((i) => i.customers_out)).toEqual(counts);
  });

  it('tells the forms apart by path (any case) and rejects any other url before a request', async () => {
    expect(formatOf('https://myaccount.aesindiana.com/OMSDATA/OMSDATA_OSI.xml')).toBe('indiana');
    expect(formatOf('https://myprofile.aes-ohio.com/DATA/DPLOMSDATA.xml')).toBe('ohio');
    expect(formatOf('https://myprofile.aes-ohio.com/data/dplomsdata.xml?t=1')).toBe('ohio');
    hits.length = 0;
    for (const path of ['/OMSDATA/OMSDATA.xml', '/Outages/Outages.html', `/x${OHIO}`]) {
      await expect(fetch(ctx(path))).rejects.toMatchObject({
        reason: 'config',
        message: expect.stringMatching(/OMSDATA_OSI\.xml.*DPLOMSDATA\.xml/),
      });
    }
    await expect(fetch({ ...ctx(OHIO), source: { ...source(OHIO), url: 'not a url' } })).rejects.toMatchObject({
      reason: 'config',
    });
    expect(hits).toEqual([]);
  });

  it('fails the poll on a non-2xx answer, a body that is not XML, and XML of the other form', async () => {
    await expect(fetch(ctx(`${OHIO}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    const read = async (path: string) => {
      const c = ctx(path);
      return normalize(await fetch(c), c.source);
    };
    await expect(read(`${OHIO}?html=1`)).rejects.toMatchObject({ reason: 'bad_body' });
    await expect(read(`${OHIO}?other=1`)).rejects.toMatchObject({
      reason: 'schema',
      message: expect.stringMatching(/expected root element <Incidents>, got <OutageData>/),
    });
  });
});
