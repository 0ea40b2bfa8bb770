// The Milsoft mobile service requests over real HTTP on 127.0.0.1, serving York Electric's recorded answers (real
// captures, payloads/milsoft-asmx/) at the service's paths: the raw is both answers' text, byte for byte; a missing
// GetAllOutages is no outages, a failing one fails the poll, and so do a body over the XML cap and a wrong url.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, outagesUrl } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const SERVICE = '/MobileMap/OMSMobileService.asmx';
const hits: Array<{ url: string; accept?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let counties = '<ArrayOfMobileCounty/>';
let outages = '<MobileOutageInfo><Outages/></MobileOutageInfo>';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) {
    counties = readFileSync(sharedPath('payloads/milsoft-asmx/GetAllCounties.xml'), 'utf8');
    outages = readFileSync(sharedPath('payloads/milsoft-asmx/GetAllOutages-york.xml'), 'utf8');
  }
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    hits.push({ url, accept: req.headers.accept });
    res.setHeader('content-type', 'text/xml; charset=utf-8');
    if (url.endsWith('/GetAllCounties'))
      return void res.end(url.startsWith('/big') ? `<a>${' '.repeat(2048)}</a>` : counties);
    if (url === `/york/omswebmap${SERVICE}/GetAllOutages`) return void res.end(outages);
    if (url === `/down${SERVICE}/GetAllOutages`) return void res.writeHead(500).end('<soap:Fault/>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await closeAll(
    () => client.close(),
    () => server.closeAllConnections(),
    () => new Promise((r) => server.close(r)),
  );
});

const ctx = (path: string, options: Record<string, unknown> = {}) => ({
  http: client.forSource(),
  source: sourceDef({
    connector: 'milsoftmobile',
    utility: 'York Electric Cooperative',
    states: ['SC', 'NC'],
    url: `${base}${path}`,
    options,
  }),
  priority: 0,
});

describe('milsoftmobile fetch', () => {
  it.skipIf(!hasSharedData)(
    'GetAllCounties and GetAllOutages beside it, asking for XML; the raw is both texts',
    async () => {
      hits.length = 0;
      const c = ctx(`/york/omswebmap${SERVICE}/GetAllCounties`);
      const raw = await fetch(c);
      expect(raw).toEqual({ counties, outages });
      expect(hits.map((h) => h.url).sort()).toEqual([
        `/york/omswebmap${SERVICE}/GetAllCounties`,
        `/york/omswebmap${SERVICE}/GetAllOutages`,
      ]);
      for (const h of hits) expect(h.accept).toMatch(/xml/);
      const total = Number(/<TotalCustAffected>(\d+)</.exec(outages)?.[1]);
      expect(normalize(raw, c.source).customers_out).toBe(total);
    },
  );

  it('a service without GetAllOutages (404) gives none; a failing one (500) fails the poll', async () => {
    expect(await fetch(ctx(`/other${SERVICE}/GetAllCounties`))).toEqual({ counties, outages: null });
    await expect(fetch(ctx(`/down${SERVICE}/GetAllCounties`))).rejects.toMatchObject({
      reason: 'http_status',
      status: 500,
    });
  });

  it('fails on a body over the row’s XML cap; refuses a url that is not GetAllCounties before any request', async () => {
    await expect(fetch(ctx(`/big${SERVICE}/GetAllCounties`, { max_xml_bytes: 1024 }))).rejects.toMatchObject({
      reason: 'too_large',
      message: expect.stringMatching(/max_xml_bytes/),
    });
    hits.length = 0;
    await expect(fetch(ctx(`/york${SERVICE}/GetAllOutages`))).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
    expect(outagesUrl(`http://h/omswebmap${SERVICE}/GetAllCounties?x=1`)).toBe(
      `http://h/omswebmap${SERVICE}/GetAllOutages`,
    );
  });
});
