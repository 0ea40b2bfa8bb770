// The WEC request over real HTTP on 127.0.0.1, serving the recorded We Energies answer (the scraper wrapper removed).
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedJson } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/outagesummary/view/OutageEventJSON';
// The scraper's capture time, sent as the server's Date so the display times get their year.
const DATE = 'Mon, 27 Jul 2026 21:13:16 GMT';
// Without the shared data the upstream answers an empty list, and only the test that needs no recording runs.
const recorded = recordedJson<{ captured_at: string; events: Array<{ Slices: Array<{ AffectedCusts: number }> }> }>(
  'payloads/wec/we-energies-latest-2026-07-27T2113Z.json',
  { captured_at: '', events: [] },
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'wec', utility: 'We Energies', states: ['WI', 'MI'] },
  {
    routes: {
      [PATH]: { json: recorded.events, type: 'application/json; charset=utf-8', headers: { date: DATE } },
    },
  },
);

describe('wec fetch', () => {
  it.skipIf(!hasSharedData)(
    'one GET of OutageEventJSON, dated by the server, normalising like the recorded capture',
    async () => {
      kit.hits.length = 0;
      const { raw, snap, source } = await kit.poll(PATH);
      expect(kit.hits).toEqual([PATH]);
      expect(raw.captured_at).toBe(new Date(recorded.captured_at).toISOString());
      expect(snap.customers_out).toBe(
        recorded.events.flatMap((e) => e.Slices).reduce((s, x) => s + x.AffectedCusts, 0),
      );
      expect(snap).toEqual(normalize(recorded, source));
    },
  );
  it('rejects a url that is not OutageEventJSON before any request; a missing answer fails the poll', async () => {
    await expectRefusedUnsent(kit, ['/outagesummary/view/outagegrid']);
    await expect(kit.fetch(`/wps${PATH}`)).rejects.toMatchObject({ reason: 'http_status', status: 404 });
  });
});
