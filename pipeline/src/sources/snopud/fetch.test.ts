// The Snohomish PUD request over real HTTP on 127.0.0.1, serving the recorded test answers at the map's path: the raw
// is the answer's text, byte for byte; a body over the XML cap, an HTML page or a wrong path fail the poll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { closeAll } from '../../../test/clean-machine.ts';
import { loadAtlas } from '../../geo/counties.ts';

const PATH = '/Home/KMLOutageAreas';
const hits: Array<{ url: string; accept?: string }> = [];
let server: http.Server;
let client: HttpClient;
let base = '';
let xml = '<kml><Document/></kml>';

beforeAll(async () => {
  loadAtlas(); // blocks the loop for seconds: before the server, so no idle keep-alive socket is dropped under us
  if (hasSharedData) xml = readFileSync(sharedPath('payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml'), 'utf8');
  server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', accept: req.headers.accept });
    res.setHeader('content-type', 'application/xml');
    if (req.url === PATH) return void res.end(xml);
    if (req.url === `${PATH}?html=1`) return void res.end('<!DOCTYPE html><html><body>Maintenance</body></html>');
    if (req.url === `${PATH}?big=1`) return void res.end(`<kml>${' '.repeat(2048)}</kml>`);
    res.writeHead(503).end('busy');
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

const source = (path: string, options: Record<string, unknown> = {}) =>
  sourceDef({ connector: 'snopud', utility: 'Snohomish County PUD', states: ['WA'], url: `${base}${path}`, options });
const ctx = (path: string, options: Record<string, unknown> = {}) => ({
  http: client.forSource(),
  source: source(path, options),
  priority: 0,
});

describe('snopud fetch', () => {
  it.skipIf(!hasSharedData)('one GET asking for KML; the raw is the answer text as sent', async () => {
    hits.length = 0;
    const c = ctx(PATH);
    const raw = await fetch(c);
    expect(raw).toBe(xml);
    expect(hits).toHaveLength(1);
    expect(hits[0].accept).toMatch(/kml/);
    expect(normalize(raw, c.source).incidents.length).toBeGreaterThan(0);
  });

  it('fails on an HTML page, a body over the row’s XML cap, a 503 and a url that is not the KML', async () => {
    await expect(fetch(ctx(`${PATH}?html=1`)).then((raw) => normalize(raw, source(PATH)))).rejects.toMatchObject({
      reason: 'schema',
    });
    await expect(fetch(ctx(`${PATH}?big=1`, { max_xml_bytes: 1024 }))).rejects.toMatchObject({
      reason: 'too_large',
      message: expect.stringMatching(/max_xml_bytes/),
    });
    await expect(fetch(ctx(`${PATH}?down=1`))).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    hits.length = 0;
    await expect(fetch(ctx('/Home/Index'))).rejects.toMatchObject({ reason: 'config' });
    expect(hits).toEqual([]);
  });
});
