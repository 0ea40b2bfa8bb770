// The iFactor request chain over real HTTP on 127.0.0.1, serving the recorded Con Edison publication.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { UNCHANGED } from '../connector.ts';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import { connectorKit, recordedJson, recordedText } from '../test-kit/index.ts';
import { fetch, shiftDirectory } from './fetch.ts';
import { normalize } from './normalize.ts';
import type { IfactorRaw } from './schema.ts';

const NEWEST = '2026_10_08_19_05_00';
const EARLIER = '2026_10_08_18_50_00';
// Without the shared data, only the tests that need no recorded file run (and the upstream answers 404 for the rest).
const bundle = recordedJson<{
  summary: { summaryFileData: { total_cust_a: { val: number } } } | null;
  nyc: unknown;
  westchester: unknown;
}>('payloads/ifactor/coned-bundle-2026-10-08T1905Z.json', { summary: null, nyc: null, westchester: null });

/** what the upstream answers, by path (a test adds a report that was late) */
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
  // Like coned: Westchester's report is late in the newest directory (a test adds it).
  '/late/ifd/metadata.json': { directory: NEWEST },
  [`/late/ifd/${NEWEST}/data.json`]: bundle.summary,
  [`/late/ifd/${NEWEST}/report_nyc.json`]: bundle.nyc,
  [`/late/ifd/${EARLIER}/data.json`]: bundle.summary,
  [`/late/ifd/${EARLIER}/report_nyc.json`]: bundle.nyc,
  [`/late/ifd/${EARLIER}/report_westchester.json`]: bundle.westchester,
};
const THEMATIC = '/gpc/ifd/2017_11_17_02_00_00/thematic/thematic_areas.json';
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'ifactor', states: ['NY'] },
  {
    route: (r) => {
      if (r.path === THEMATIC) return { body: recordedText('payloads/ifactor-thematic/georgiapower-2017-11.json', '') };
      return r.path in files ? { json: files[r.path] } : undefined;
    },
    // ETags, as the real site's static files have them: a repeated poll is answered 304.
    etags: true,
    hit: (r) => r.path,
  },
);
const def = (site: string, options: Record<string, unknown>, states = ['NY']) =>
  kit.source(`/${site}/ifd/metadata.json`, { options, states });
const CONED = { reports: ['report_nyc.json', 'report_westchester.json'] };

describe('ifactor fetch', () => {
  it.skipIf(!hasSharedData)(
    'metadata.json → data.json + reports, stepping back 15 minutes when a report is not there yet',
    async () => {
      const { raw, snap } = await kit.poll(def('coned', CONED));
      expect((raw as IfactorRaw).directory).toBe(EARLIER);
      expect((raw as IfactorRaw).reports).toEqual([bundle.nyc, bundle.westchester]);
      expect(kit.hits).toContain(`/coned/ifd/${NEWEST}/report_westchester.json`);
      expect(snap.customers_out).toBe(bundle.summary?.summaryFileData.total_cust_a.val);
      expect(snap.counties.length).toBe(6);
    },
  );

  it('gives up after the newest directory and 4 earlier ones, naming them', async () => {
    await expect(kit.fetch(def('lagging', CONED))).rejects.toMatchObject({
      reason: 'http_status',
      message: expect.stringContaining('2026_10_08_18_05_00'),
    });
    expect(kit.hits.filter((h) => h.startsWith('/lagging/') && h.endsWith('/data.json')).length).toBe(5);
  });

  it.skipIf(!hasSharedData)('reads the legacy thematic areas when options.thematic is set', async () => {
    const { raw, snap } = await kit.poll(def('gpc', { thematic: true }, ['GA']));
    expect((raw as IfactorRaw).reports).toEqual([]);
    expect(snap.customers_out).toBe(900000);
    expect(snap.counties.length).toBe(154);
  });

  it('refuses a registry row it cannot follow', async () => {
    await expect(kit.fetch(def('coned', {}))).rejects.toMatchObject({ reason: 'config' });
    const wrongUrl = kit.source('/coned/ifd/data.json', { options: CONED });
    await expect(kit.fetch(wrongUrl)).rejects.toThrow(/must end in \/metadata\.json/);
  });

  it.skipIf(!hasSharedData)(
    'with the snapshot held, a 304 of metadata.json is the only request (a complete directory never changes)',
    async () => {
      const source = def('gpc', { thematic: true }, ['GA']);
      const own = new HttpClient(LOOPBACK_HTTP);
      try {
        const first = await fetch({ http: own.forSource(undefined, {}, 'gpc'), source, priority: 0 });
        expect((first as IfactorRaw).directory).toBe('2017_11_17_02_00_00');
        const n = kit.hits.length;
        const again = own.forSource(undefined, {}, 'gpc');
        expect(await fetch({ http: again, source, priority: 0, held: true })).toBe(UNCHANGED);
        expect(kit.hits.slice(n)).toEqual(['/gpc/ifd/metadata.json']);
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
        const n = kit.hits.length;
        const again = await fetch({ http: own.forSource(undefined, {}, 'late'), source, priority: 0, held: true });
        expect((again as IfactorRaw).directory).toBe(NEWEST);
        expect(kit.hits.slice(n)).toContain(`/late/ifd/${NEWEST}/report_westchester.json`);
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
