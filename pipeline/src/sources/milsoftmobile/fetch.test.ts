// The Milsoft mobile service requests over real HTTP on 127.0.0.1, serving York Electric's recorded answers (real
// captures, payloads/milsoft-asmx/) at the service's paths: the raw is both answers' text, byte for byte; a missing
// GetAllOutages is no outages, a failing one fails the poll, and so do a body over the XML cap and a wrong url.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch, outagesUrl } from './fetch.ts';
import { normalize } from './normalize.ts';

const SERVICE = '/MobileMap/OMSMobileService.asmx';
const counties = recordedText('payloads/milsoft-asmx/GetAllCounties.xml', '<ArrayOfMobileCounty/>');
const outages = recordedText(
  'payloads/milsoft-asmx/GetAllOutages-york.xml',
  '<MobileOutageInfo><Outages/></MobileOutageInfo>',
);
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'milsoftmobile', utility: 'York Electric Cooperative', states: ['SC', 'NC'] },
  {
    type: 'text/xml; charset=utf-8',
    routes: {
      [`/york/omswebmap${SERVICE}/GetAllOutages`]: { body: outages },
      [`/down${SERVICE}/GetAllOutages`]: { status: 500, body: '<soap:Fault/>' },
    },
    route: (r) =>
      r.url.endsWith('/GetAllCounties')
        ? { body: r.url.startsWith('/big') ? `<a>${' '.repeat(2048)}</a>` : counties }
        : undefined,
    hit: (r) => ({ url: r.url, accept: r.headers.accept }),
  },
);

describe('milsoftmobile fetch', () => {
  it.skipIf(!hasSharedData)(
    'GetAllCounties and GetAllOutages beside it, asking for XML; the raw is both texts',
    async () => {
      kit.hits.length = 0;
      const { raw, snap } = await kit.poll(`/york/omswebmap${SERVICE}/GetAllCounties`);
      expect(raw).toEqual({ counties, outages });
      expect(kit.hits.map((h) => h.url).sort()).toEqual([
        `/york/omswebmap${SERVICE}/GetAllCounties`,
        `/york/omswebmap${SERVICE}/GetAllOutages`,
      ]);
      for (const h of kit.hits) expect(h.accept).toMatch(/xml/);
      const total = Number(/<TotalCustAffected>(\d+)</.exec(outages)?.[1]);
      expect(snap.customers_out).toBe(total);
    },
  );

  it('a service without GetAllOutages (404) gives none; a failing one (500) fails the poll', async () => {
    expect(await kit.fetch(`/other${SERVICE}/GetAllCounties`)).toEqual({ counties, outages: null });
    await expect(kit.fetch(`/down${SERVICE}/GetAllCounties`)).rejects.toMatchObject({
      reason: 'http_status',
      status: 500,
    });
  });

  it('fails on a body over the row’s XML cap; refuses a url that is not GetAllCounties before any request', async () => {
    const big = kit.source(`/big${SERVICE}/GetAllCounties`, { options: { max_xml_bytes: 1024 } });
    await expect(kit.fetch(big)).rejects.toMatchObject({
      reason: 'too_large',
      message: expect.stringMatching(/max_xml_bytes/),
    });
    await expectRefusedUnsent(kit, [`/york${SERVICE}/GetAllOutages`]);
    expect(outagesUrl(`http://h/omswebmap${SERVICE}/GetAllCounties?x=1`)).toBe(
      `http://h/omswebmap${SERVICE}/GetAllOutages`,
    );
  });
});
