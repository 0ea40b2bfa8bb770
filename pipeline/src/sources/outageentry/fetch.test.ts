import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { loadAtlas } from '../../geo/counties.ts';

const seen: Array<{ method: string; path: string; type: string; form: Record<string, string> }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';

beforeAll(async () => {
  // Load the county shapes first: the load blocks the event loop for seconds, long enough for the server to drop
  // an idle keep-alive socket that the client would then reuse.
  loadAtlas();
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '';
      seen.push({
        method: req.method ?? '',
        path,
        type: req.headers['content-type'] ?? '',
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      if (req.method !== 'POST' || path !== '/Outage/ajax/ajaxShellOut.php') return res.writeHead(404).end();
      res.setHeader('content-type', 'text/html; charset=UTF-8'); // what PHP sends by default
      res.end(fs.readFileSync(sharedPath('payloads/outageentry/sample.json')));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  await new Promise((r) => server.close(r));
});

describe('outageentry fetch', () => {
  it.skipIf(!hasSharedData)(
    'POSTs the markers form for the client and service index, then normalises the answer',
    async () => {
      const source = sourceDef({
        connector: 'outageentry' as never,
        states: ['VA'],
        url: `${base}/Outage/ajax/ajaxShellOut.php`,
        options: { client: 'svec', service_index: 2 },
      });
      const raw = await fetch({ http: client.forSource(), source, priority: 0 });
      expect(seen).toEqual([
        {
          method: 'POST',
          path: '/Outage/ajax/ajaxShellOut.php',
          type: 'application/x-www-form-urlencoded',
          form: { action: 'get', client: 'svec', target: 'cfa_device_markers', serviceIndex: '2' },
        },
      ]);
      const snap = normalize(raw, source);
      expect(snap.incidents.map((i) => i.id)).toEqual(['D998263', 'D171224']);
      expect(snap.customers_out).toBe(5);
    },
  );
  it('refuses to poll without options.client', async () => {
    const before = seen.length;
    const source = sourceDef({ connector: 'outageentry' as never, url: `${base}/Outage/ajax/ajaxShellOut.php` });
    await expect(fetch({ http: client.forSource(), source, priority: 0 })).rejects.toMatchObject({ reason: 'config' });
    expect(seen.length).toBe(before);
  });
});
