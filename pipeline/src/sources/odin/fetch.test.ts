import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, LOOPBACK_HTTP } from '../http.ts';
import type { SourceError } from '../../errors.ts';
import { fetch, exportUrl, ODIN_FIELDS } from './fetch.ts';
import { normalize } from './normalize.ts';
import { loadAtlas } from '../../geo/counties.ts';
import { hasSharedData, sharedJson, sourceDef } from '../../../test/shared-data.ts';

const EXPORT = '/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json';
// Without the shared data the export is empty and only the tests that need no recorded file run.
const records = hasSharedData
  ? (sharedJson('payloads/odin/odin-records-sample.json') as { results: Array<Record<string, unknown>> }).results
  : [];
/** A storm-sized export: the real records 250 times over (12,500, more than the records API's 10,000 cap). */
const COPIES = 250;
const seen: URL[] = [];
let server: http.Server;
let client: HttpClient;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(url);
    if (url.pathname !== EXPORT) return void res.writeHead(404).end();
    // OpenDataSoft's `select`: only the fields asked for (the county geometry is most of each record's bytes)
    const fields = (url.searchParams.get('select') ?? '').split(',').filter(Boolean);
    const pick = (r: Record<string, unknown>) =>
      fields.length ? Object.fromEntries(fields.map((f) => [f, r[f] ?? null])) : r;
    const body = Array.from({ length: COPIES }, () => records.map(pick)).flat();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  loadAtlas(); // loaded before the server runs, so a pooled connection does not idle through it
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('odin fetch', () => {
  it.skipIf(!hasSharedData)(
    'reads the whole data set in one export request, asking only for the fields it reads',
    async () => {
      const source = sourceDef({ connector: 'odin', states: ['OH'], url: `${base}${EXPORT}` });
      const before = seen.length;
      const raw = await fetch({ http: client.forSource(), source, priority: 0 });
      expect(seen.length - before).toBe(1);
      expect(seen.at(-1)?.searchParams.get('select')).toBe(ODIN_FIELDS.join(','));
      expect(Array.isArray(raw) && raw.length).toBe(COPIES * records.length);
      const snap = normalize(raw, source);
      const meters = records.reduce((s, r) => s + (r.metersaffected as number), 0);
      expect(snap.customers_out).toBe(COPIES * meters);
      expect(snap.counties.find((c) => c.fips === '48201')?.customers_out).toBe(
        COPIES *
          records
            .filter((r) => r.communitydescriptor === '48201')
            .reduce((s, r) => s + (r.metersaffected as number), 0),
      );
    },
  );
  it('keeps a select the registry row gives', () => {
    expect(new URL(exportUrl(`${base}${EXPORT}?select=utility_id`)).searchParams.get('select')).toBe('utility_id');
  });
  it('refuses the paged records API and non-JSON exports with a config error that says what to use', () => {
    const bad = (url: string) => {
      try {
        exportUrl(url);
      } catch (err) {
        return err as SourceError;
      }
      throw new Error(`accepted ${url}`);
    };
    const records = bad(
      'https://ornl.opendatasoft.com/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/records',
    );
    expect(records.reason).toBe('config');
    expect(records.message).toMatch(/stops at 10,000 records; use the export endpoint/);
    expect(
      bad('https://ornl.opendatasoft.com/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/csv')
        .message,
    ).toMatch(/not a JSON export/);
  });
});
