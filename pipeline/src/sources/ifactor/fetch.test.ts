// The iFactor request chain over real HTTP on 127.0.0.1, serving the recorded Con Edison publication.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UNCHANGED } from '../connector.ts';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { fetch, shiftDirectory } from './fetch.ts';
import { normalize } from './normalize.ts';
import type { IfactorRaw } from './schema.ts';
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

/** what the server answers, by path (a test adds a report that was late) */
const files: Record<string, unknown> = {};

beforeAll(async () => {
  Object.assign(files, {
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
    // Like coned: Westchester's report is late in the newest directory (a test adds it).
    '/late/ifd/metadata.json': { directory: NEWEST },
    [`/late/ifd/${NEWEST}/data.json`]: bundle.summary,
    [`/late/ifd/${NEWEST}/report_nyc.json`]: bundle.nyc,
    [`/late/ifd/${EARLIER}/data.json`]: bundle.summary,
    [`/late/ifd/${EARLIER}/report_nyc.json`]: bundle.nyc,
    [`/late/ifd/${EARLIER}/report_westchester.json`]: bundle.westchester,
  });
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    const body =
      path === '/gpc/ifd/2017_11_17_02_00_00/thematic/thematic_areas.json'
        ? fs.readFileSync(sharedPath('payloads/ifactor-thematic/georgiapower-2017-11.json'))
        : path in files
          ? JSON.stringify(files[path])
          : null;
    if (body === null) {
      res.writeHead(404);
      return void res.end();
    }
    // ETags, as the real site's static files have them: a repeated poll is answered 304.
    const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
    res.writeHead(req.headers['if-none-match'] === etag ? 304 : 200, { ETag: etag });
    res.end(req.headers['if-none-match'] === etag ? undefined : body);
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
      const raw = (await fetch({ http: client.forSource(), source, priority: 0 })) as IfactorRaw;
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
    const raw = (await fetch({ http: client.forSource(), source, priority: 0 })) as IfactorRaw;
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

  it.skipIf(!hasSharedData)(
    'with the snapshot held, a 304 of metadata.json is the only request (a complete directory never changes)',
    async () => {
      const source = sourceDef({ ...def('gpc', { thematic: true }), states: ['GA'] });
      const own = new HttpClient(LOOPBACK_HTTP);
      try {
        const first = await fetch({ http: own.forSource(undefined, {}, 'gpc'), source, priority: 0 });
        expect((first as IfactorRaw).directory).toBe('2017_11_17_02_00_00');
        const n = hits.length;
        const again = own.forSource(undefined, {}, 'gpc');
        expect(await fetch({ http: again, source, priority: 0, held: true })).toBe(UNCHANGED);
        expect(hits.slice(n)).toEqual(['/gpc/ifd/metadata.json']);
        expect(again.allNotModified).toBe(true);
      } finally {
        await own.close();
      }
    },
  );

  it.skipIf(!hasSharedData)(
    'after a snapshot from an older directory, follows the chain again and takes the newest once complete',
    async () => {
      const source = def('late', CONED);
      const own = new HttpClient(LOOPBACK_HTTP);
      try {
        const first = await fetch({ http: own.forSource(undefined, {}, 'late'), source, priority: 0 });
        expect((first as IfactorRaw).directory).toBe(EARLIER);
        files[`/late/ifd/${NEWEST}/report_westchester.json`] = bundle.westchester;
        const n = hits.length;
        const again = await fetch({ http: own.forSource(undefined, {}, 'late'), source, priority: 0, held: true });
        expect((again as IfactorRaw).directory).toBe(NEWEST);
        expect(hits.slice(n)).toContain(`/late/ifd/${NEWEST}/report_westchester.json`);
      } finally {
        await own.close();
      }
    },
  );

  it('steps directory names back across midnight and month ends', () => {
    expect(shiftDirectory('2026_11_01_00_05_00', -15)).toBe('2026_10_31_23_50_00');
    expect(shiftDirectory('latest', -15)).toBeNull();
  });
});
