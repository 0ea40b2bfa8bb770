// The OMAP request over real HTTP on 127.0.0.1, serving the recorded (edited) Tabular sample.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

let server: http.Server;
let base = '';
const client = new HttpClient(LOOPBACK_HTTP);
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/OMAP/api/Omap/Outage/Tabular?opco=PA')
      return void res.end(fs.readFileSync(sharedPath('payloads/omap/sample.json')));
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('omap fetch', () => {
  it.skipIf(!hasSharedData)('one GET of the Tabular URL', async () => {
    const source = sourceDef({
      connector: 'omap' as never,
      states: ['PA'],
      url: `${base}/OMAP/api/Omap/Outage/Tabular?opco=PA`,
    });
    const snap = normalize(await fetch({ http: client.forSource(), source, priority: 0 }), source);
    expect(hits).toEqual(['/OMAP/api/Omap/Outage/Tabular?opco=PA']);
    expect(snap.customers_out).toBe(5);
    expect(snap.counties.length).toBe(2);
  });

  it('a missing table is an http_status failure', async () => {
    const source = sourceDef({
      connector: 'omap' as never,
      states: ['PA'],
      url: `${base}/OMAP/api/Omap/Outage/Tabular?opco=XX`,
    });
    await expect(fetch({ http: client.forSource(), source, priority: 0 })).rejects.toMatchObject({
      reason: 'http_status',
      status: 404,
    });
  });
});
