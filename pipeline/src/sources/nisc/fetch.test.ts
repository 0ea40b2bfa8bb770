// The NISC requests over real HTTP on 127.0.0.1: summary.json alone when it has a county region set; config.json
// beside it when the outages carry only x/y offsets (Mohave Electric's real answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { sourceHeaders } from '../source-http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const hits: string[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';
const bodies = new Map<string, unknown>();

beforeAll(async () => {
  loadAtlas(); // before the server: the load blocks the loop long enough to drop an idle keep-alive socket
  if (hasSharedData) {
    bodies.set('/mohave/Hosted_Outage_Map/summary.json', sharedJson('payloads/nisc/mohave-summary.json'));
    bodies.set('/mohave/Hosted_Outage_Map/config.json', sharedJson('payloads/nisc/mohave-config.json'));
    bodies.set('/kiuc/Hosted_Outage_Map/summary.json', sharedJson('payloads/kiuc/summary.json'));
    bodies.set('/noconfig/Hosted_Outage_Map/summary.json', sharedJson('payloads/nisc/mohave-summary.json'));
  }
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = bodies.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end('not found');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
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

const ctx = (tenant: string, states = ['AZ']) => {
  const def = sourceDef({ connector: 'nisc', states, url: `${base}/${tenant}/Hosted_Outage_Map/summary.json` });
  return { http: client.forSource(undefined, sourceHeaders(def.options)), source: def, priority: 0 };
};

describe.skipIf(!hasSharedData)('nisc fetch', () => {
  it('reads config.json beside a summary whose outages carry only x/y offsets', async () => {
    hits.length = 0;
    const c = ctx('mohave');
    const raw = await fetch(c);
    expect(hits).toEqual(['/mohave/Hosted_Outage_Map/summary.json', '/mohave/Hosted_Outage_Map/config.json']);
    expect(raw).toEqual({
      summary: bodies.get('/mohave/Hosted_Outage_Map/summary.json'),
      config: bodies.get('/mohave/Hosted_Outage_Map/config.json'),
    });
    expect(normalize(raw, c.source).counties.length).toBeGreaterThan(0);
  });

  it('asks for nothing more when the summary has a county region set', async () => {
    hits.length = 0;
    const c = ctx('kiuc', ['HI']);
    const raw = await fetch(c);
    expect(hits).toEqual(['/kiuc/Hosted_Outage_Map/summary.json']);
    expect(raw).toEqual({ summary: bodies.get('/kiuc/Hosted_Outage_Map/summary.json') });
  });

  it('a missing config.json fails the poll naming the request', async () => {
    await expect(fetch(ctx('noconfig'))).rejects.toThrow(/config\.json/);
  });
});
