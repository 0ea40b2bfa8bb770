// The iFactor request chain over real HTTP on 127.0.0.1, serving the recorded Con Edison publication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, shiftDirectory } from './fetch.ts';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedPath, sourceDef } from '../../../test/shared-data.ts';

const NEWEST = '2026_10_08_19_05_00';
const EARLIER = '2026_10_08_18_50_00';
let server: http.Server;
let base = '';
const client = new HttpClient(LOOPBACK_HTTP);
const hits: string[] = [];
// Without the shared data, only the tests that need no recorded file run (and the server answers 404 for the rest).
const bundle = hasSharedData
  ? JSON.parse(fs.readFileSync(sharedPath('payloads/ifactor/coned-bundle-2026-10-08T1905Z.json'), 'utf8'))
  : {};

beforeAll(async () => {
  const files: Record<string, unknown> = {
    '/coned/ifd/metadata.json': { directory: NEWEST },
    // The newest directory is half written: data.json and the NYC report, not yet Westchester's.
    [`/coned/ifd/${NEWEST}/data.json`]: bundle.summary,
    [`/coned/ifd/${NEWEST}/report_nyc.json`]: bundle.nyc,
    [`/coned/ifd/${EARLIER}/data.json`]: bundle.summary,
    [`/coned/ifd/${EARLIER}/report_nyc.json`]: bundle.nyc,
    [`/coned/ifd/${EARLIER}/report_westchester.json`]: bundle.westchester,
    '/lagging/ifd/metadata.json': { directory: NEWEST },
    '/gpc/ifd/metadata.json': { Directory: '2017_11_17_02_00_00' },
    // The 2017 capture has no data.json: a made-up one, to show the headline comes from it.
    '/gpc/ifd/2017_11_17_02_00_00/data.json': {
      summaryFileData: { total_cust_a: { val: 900000 }, total_cust_s: 2500000 },
    },
  };
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    if (path === '/gpc/ifd/2017_11_17_02_00_00/thematic/thematic_areas.json')
      return void res.end(fs.readFileSync(sharedPath('payloads/ifactor-thematic/georgiapower-2017-11.json')));
    if (path in files) return void res.end(JSON.stringify(files[path]));
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

const def = (site: string, options: Record<string, unknown>) =>
  sourceDef({ connector: 'ifactor' as never, states: ['NY'], url: `${base}/${site}/ifd/metadata.json`, options });
const CONED = { reports: ['report_nyc.json', 'report_westchester.json'] };

describe('ifactor fetch', () => {
  it.skipIf(!hasSharedData)(
    'metadata.json → data.json + reports, stepping back 15 minutes when a report is not there yet',
    async () => {
      const source = def('coned', CONED);
      const raw = await fetch({ http: client.forSource(), source, priority: 0 });
      expect(raw.directory).toBe(EARLIER);
      expect(raw.reports).toEqual([bundle.nyc, bundle.westchester]);
      expect(hits).toContain(`/coned/ifd/${NEWEST}/report_westchester.json`);
      const snap = normalize(raw, source);
      expect(snap.customers_out).toBe(bundle.summary.summaryFileData.total_cust_a.val);
      expect(snap.counties.length).toBe(6);
    },
  );

  it('gives up after the newest directory and 4 earlier ones, naming them', async () => {
    const err = fetch({ http: client.forSource(), source: def('lagging', CONED), priority: 0 });
    await expect(err).rejects.toMatchObject({
      reason: 'http_status',
      message: expect.stringContaining('2026_10_08_18_05_00'),
    });
    expect(hits.filter((h) => h.startsWith('/lagging/') && h.endsWith('/data.json')).length).toBe(5);
  });

  it.skipIf(!hasSharedData)('reads the legacy thematic areas when options.thematic is set', async () => {
    const source = sourceDef({ ...def('gpc', { thematic: true }), states: ['GA'] });
    const raw = await fetch({ http: client.forSource(), source, priority: 0 });
    expect(raw.reports).toEqual([]);
    const snap = normalize(raw, source);
    expect(snap.customers_out).toBe(900000);
    expect(snap.counties.length).toBe(154);
  });

  it('refuses a registry row it cannot follow', async () => {
    await expect(fetch({ http: client.forSource(), source: def('coned', {}), priority: 0 })).rejects.toMatchObject({
      reason: 'config',
    });
    const wrongUrl = sourceDef({ ...def('coned', CONED), url: `${base}/coned/ifd/data.json` });
    await expect(fetch({ http: client.forSource(), source: wrongUrl, priority: 0 })).rejects.toThrow(
      /must end in \/metadata\.json/,
    );
  });

  it('steps directory names back across midnight and month ends', () => {
    expect(shiftDirectory('2026_11_01_00_05_00', -15)).toBe('2026_10_31_23_50_00');
    expect(shiftDirectory('latest', -15)).toBeNull();
  });
});
