// The ODIN request over real HTTP on 127.0.0.1: OpenDataSoft's JSON export of the county data set, served from the
// recorded records many times over (a storm-sized answer), with only the fields the request selects.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import type { SourceError } from '../../errors.ts';
import { connectorKit, recordedJson } from '../test-kit/index.ts';
import { exportUrl, fetch, ODIN_FIELDS } from './fetch.ts';
import { normalize } from './normalize.ts';

const EXPORT = '/api/explore/v2.1/catalog/datasets/odin-real-time-outages-county/exports/json';
// Without the shared data the export is empty and only the tests that need no recorded file run.
const records = recordedJson<{ results: Array<Record<string, unknown>> }>('payloads/odin/odin-records-sample.json', {
  results: [],
}).results;
/** A storm-sized export: the real records 250 times over (12,500, more than the records API's 10,000 cap). */
const COPIES = 250;
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'odin', states: ['OH'] },
  {
    route: (r) => {
      if (r.path !== EXPORT) return undefined;
      // OpenDataSoft's `select`: only the fields asked for (the county geometry is most of each record's bytes)
      const fields = (r.query.get('select') ?? '').split(',').filter(Boolean);
      const pick = (x: Record<string, unknown>) =>
        fields.length ? Object.fromEntries(fields.map((f) => [f, x[f] ?? null])) : x;
      return { json: Array.from({ length: COPIES }, () => records.map(pick)).flat(), type: 'application/json' };
    },
    hit: (r) => new URL(r.url, 'http://x'),
  },
);

describe('odin fetch', () => {
  it.skipIf(!hasSharedData)(
    'reads the whole data set in one export request, asking only for the fields it reads',
    async () => {
      const before = kit.hits.length;
      const { raw, snap } = await kit.poll(EXPORT);
      expect(kit.hits.length - before).toBe(1);
      expect(kit.hits.at(-1)?.searchParams.get('select')).toBe(ODIN_FIELDS.join(','));
      expect(Array.isArray(raw) && raw.length).toBe(COPIES * records.length);
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
    expect(new URL(exportUrl(`${kit.base}${EXPORT}?select=utility_id`)).searchParams.get('select')).toBe('utility_id');
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
