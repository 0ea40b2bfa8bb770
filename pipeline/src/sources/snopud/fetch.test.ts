// The Snohomish PUD request over real HTTP on 127.0.0.1, serving the recorded test answers at the map's path: the raw
// is the answer's text, byte for byte; a body over the XML cap, an HTML page or a wrong path fail the poll.
import { describe, expect, it } from 'vitest';
import { hasSharedData } from '../../../test/shared-data.ts';
import { connectorKit, expectRefusedUnsent, recordedText } from '../test-kit/index.ts';
import { fetch } from './fetch.ts';
import { normalize } from './normalize.ts';

const PATH = '/Home/KMLOutageAreas';
const xml = recordedText('payloads/snopud/2025-01-15T144003-KMLOutageAreas.xml', '<kml><Document/></kml>');
const kit = connectorKit(
  { fetch, normalize },
  { connector: 'snopud', utility: 'Snohomish County PUD', states: ['WA'] },
  {
    type: 'application/xml',
    routes: {
      [PATH]: { body: xml },
      [`${PATH}?html=1`]: { body: '<!DOCTYPE html><html><body>Maintenance</body></html>' },
      [`${PATH}?big=1`]: { body: `<kml>${' '.repeat(2048)}</kml>` },
    },
    fallback: { status: 503, body: 'busy' },
    hit: (r) => ({ url: r.url, accept: r.headers.accept }),
  },
);

describe('snopud fetch', () => {
  it.skipIf(!hasSharedData)('one GET asking for KML; the raw is the answer text as sent', async () => {
    kit.hits.length = 0;
    const { raw, snap } = await kit.poll(PATH);
    expect(raw).toBe(xml);
    expect(kit.hits).toHaveLength(1);
    expect(kit.hits[0].accept).toMatch(/kml/);
    expect(snap.incidents.length).toBeGreaterThan(0);
  });

  it('fails on an HTML page, a body over the row’s XML cap, a 503 and a url that is not the KML', async () => {
    await expect(kit.poll(`${PATH}?html=1`)).rejects.toMatchObject({ reason: 'schema' });
    await expect(kit.fetch(kit.source(`${PATH}?big=1`, { options: { max_xml_bytes: 1024 } }))).rejects.toMatchObject({
      reason: 'too_large',
      message: expect.stringMatching(/max_xml_bytes/),
    });
    await expect(kit.fetch(`${PATH}?down=1`)).rejects.toMatchObject({ reason: 'http_status', status: 503 });
    await expectRefusedUnsent(kit, ['/Home/Index']);
  });
});
