// Every connector's fetch over real HTTP on 127.0.0.1, serving the recorded real payloads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient } from '../src/sources/http.ts';
import { connectorFor } from '../src/sources/connectors.ts';
import { hasSharedData, sharedPath, sourceDef } from './shared-data.ts';

let server: http.Server;
let base = '';
const hits: string[] = [];

beforeAll(async () => {
  const odin = JSON.parse(fs.readFileSync(sharedPath('payloads/odin/odin-records-sample.json'), 'utf8'));
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(url.pathname + url.search);
    const json = (v: unknown) => res.end(JSON.stringify(v));
    const file = (rel: string) => res.end(fs.readFileSync(sharedPath(rel)));
    if (url.pathname.endsWith('/currentState'))
      return json({ stormcenterDeploymentId: 'dep-1', data: { interval_generation_data: 'data/abc-123' } });
    if (url.pathname.endsWith('/configuration/dep-1'))
      return json({
        config: {
          reports: {
            data: {
              interval_generation_data: [
                { id: 'town', type: 'town' },
                { id: 'county', type: 'county' },
              ],
            },
          },
        },
      });
    if (url.pathname === '/data/abc-123/public/reports/county_report.json')
      return file('payloads/kubra/dominion-report.json');
    if (url.pathname === '/nisc/summary.json') return file('payloads/kiuc/summary.json');
    if (url.pathname === '/fpl/main.json')
      return json(JSON.parse(fs.readFileSync(sharedPath('payloads/fpl/counties.json'), 'utf8')).main);
    if (url.pathname === '/fpl/nw.json')
      return json(JSON.parse(fs.readFileSync(sharedPath('payloads/fpl/counties.json'), 'utf8')).nw);
    if (url.pathname === '/odin/exports/json') return json(odin.results); // the export endpoint: a bare array
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server?.closeAllConnections();
  server?.close();
});

const run = async (def: ReturnType<typeof sourceDef>) => {
  const http = new HttpClient();
  try {
    const c = connectorFor(def.connector);
    return c.normalize(await c.fetch({ http: http.forSource(), source: def, priority: 0 }), def);
  } finally {
    await http.close();
  }
};

describe.skipIf(!hasSharedData)('connectors over HTTP', () => {
  it('kubra: currentState → configuration → the county report of every region', async () => {
    const snap = await run(
      sourceDef({
        connector: 'kubra',
        states: ['VA', 'NC'],
        url: `${base}/stormcenter/api/v1/stormcenters/i/views/v/currentState?preview=false`,
      }),
    );
    expect(hits).toContain('/stormcenter/api/v1/stormcenters/i/views/v/configuration/dep-1?preview=false');
    expect(new Set(snap.counties.map((c) => c.fips.slice(0, 2)))).toEqual(new Set(['37', '51']));
  });
  it('nisc: summary.json', async () => {
    const snap = await run(sourceDef({ connector: 'nisc', states: ['HI'], url: `${base}/nisc/summary.json` }));
    expect(snap.counties[0].fips).toBe('15007');
  });
  it('fpl: main and northwest lists', async () => {
    const snap = await run(
      sourceDef({
        connector: 'fpl',
        states: ['FL'],
        url: `${base}/fpl/main.json`,
        options: { nw_url: `${base}/fpl/nw.json` },
      }),
    );
    expect(snap.customers_out).toBe(490);
  });
  it('odin: the whole data set in one export request', async () => {
    const snap = await run(sourceDef({ connector: 'odin', states: ['OH'], url: `${base}/odin/exports/json` }));
    expect(hits.filter((h) => h.startsWith('/odin/')).length).toBe(1);
    expect(snap.unit).toBe('meters');
    expect(snap.counties.length).toBeGreaterThan(10);
  });
});
