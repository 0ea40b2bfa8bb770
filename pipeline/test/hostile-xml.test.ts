// Issue 24, XML row: two 19 MB entity-heavy AES bodies (an incident id of 3.8 million `&amp;`) fail their one source
// at the XML body cap, reading no more than the cap; with the cap raised, the parse refuses the absurd field unparsed
// instead of storing a 3.8-million-character id; NOVEC's attributes, SienaTech's POST and the Milsoft mobile service's
// county list get the same bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourceError } from '../src/errors.ts';
import { connectorFor } from '../src/sources/connectors.ts';
import { HttpClient, LOOPBACK_HTTP } from '../src/sources/http.ts';
import { storedSnapshot } from '../src/registry/probe.ts';
import type { SourceDef } from '../src/sources/source-def.ts';
import { XML_MAX_BYTES } from '../src/sources/xml.ts';
import { ScriptedFeed } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const ENTITIES = '&amp;'.repeat(3_800_000); // 19 MB on the wire, 3.8 million characters once parsed
const INDIANA = `<?xml version="1.0"?><OutageData><Incidents><Marker><IncidentId>${ENTITIES}</IncidentId><CustAffected>5</CustAffected><Lat>39.77</Lat><Long>-86.16</Long></Marker></Incidents></OutageData>`;
const OHIO = `<Incidents><Markers><INCIDENTID>${ENTITIES}</INCIDENTID><TOTALCUSTS>5</TOTALCUSTS><COUNTY>MONTGOMERY</COUNTY></Markers></Incidents>`;
const LONG_ID = '&amp;'.repeat(200_000); // 1 MB: under the cap, but one field of it
const NOVEC = `<outages><outage id="${LONG_ID}" numOut="3" county="Fairfax"/></outages>`;
const SIENA = `<NewDataSet><OMSCASES><SERIAL>${LONG_ID}</SERIAL><CURCUST>4</CURCUST></OMSCASES></NewDataSet>`;
const ASMX = '/OMSWebMap/MobileMap/OMSMobileService.asmx';
// a county name of 1 MB: over even the 256 K a county outline (Shape) may run to
const MOBILE = `<ArrayOfMobileCounty><MobileCounty><CountyName>${LONG_ID}</CountyName><CustomersAffected>4</CustomersAffected></MobileCounty></ArrayOfMobileCounty>`;

const feed = new ScriptedFeed();
let client: HttpClient;

beforeAll(async () => {
  await feed.start();
  feed.set('/OMSDATA/OMSDATA_OSI.xml', { body: INDIANA, headers: { 'content-type': 'text/xml' } });
  feed.set('/DATA/DPLOMSDATA.xml', { body: OHIO, headers: { 'content-type': 'text/xml' } });
  feed.set('/stormcenter/data/outagedtl.xml', { body: NOVEC, headers: { 'content-type': 'text/xml' } });
  feed.set('/Outages/Home/UpdatePushpin', { body: SIENA, headers: { 'content-type': 'text/xml' } });
  feed.set(`${ASMX}/GetAllCounties`, { body: MOBILE, headers: { 'content-type': 'text/xml' } });
  client = new HttpClient(LOOPBACK_HTTP);
});
afterAll(async () => {
  await client.close();
  await feed.stop();
});

/** One poll of `source` as the pipeline runs it: fetch, then normalize and quarantine; its failure and bytes read. */
async function poll(source: SourceDef): Promise<{ err: SourceError | null; bytes: number }> {
  const http = client.forSource(undefined, {}, source.id);
  try {
    storedSnapshot(source, await connectorFor(source.connector).fetch({ http, source, priority: 0 }));
    return { err: null, bytes: http.budget.bytes };
  } catch (err) {
    return { err: err as SourceError, bytes: http.budget.bytes };
  }
}

const aes = (path: string, state: string, options: Record<string, unknown> = {}) =>
  sourceDef({ id: `aes-${state}`, connector: 'aes', states: [state], url: `${feed.base}${path}`, options });

describe('19 MB entity-heavy AES bodies', () => {
  it.each([
    ['/OMSDATA/OMSDATA_OSI.xml', 'IN'],
    ['/DATA/DPLOMSDATA.xml', 'OH'],
  ])('%s fails at the XML cap, naming max_xml_bytes, having read no more than the cap', async (path, state) => {
    const { err, bytes } = await poll(aes(path, state));
    expect(err).toMatchObject({ reason: 'too_large', message: expect.stringMatching(/options\.max_xml_bytes/) });
    expect(bytes).toBeLessThanOrEqual(XML_MAX_BYTES);
  });

  it('with the cap raised, the 3.8-million-character id is refused unparsed, not stored', async () => {
    const { err, bytes } = await poll(aes('/OMSDATA/OMSDATA_OSI.xml', 'IN', { max_xml_bytes: 32 * 1024 * 1024 }));
    expect(bytes).toBe(INDIANA.length);
    expect(err).toMatchObject({ reason: 'too_large', message: expect.stringMatching(/field or tag longer than/) });
  });

  it('refuses a cap option that is not a positive integer', async () => {
    const { err } = await poll(aes('/DATA/DPLOMSDATA.xml', 'OH', { max_xml_bytes: '32MB' }));
    expect(err).toMatchObject({ reason: 'config', message: expect.stringMatching(/max_xml_bytes must be/) });
  });
});

describe('over-long fields in the other XML connectors', () => {
  it.each([
    ['novec', '/stormcenter/data/outagedtl.xml', 'VA'],
    ['sienatech', '/Outages/Home/UpdatePushpin', 'CO'],
    ['milsoftmobile', `${ASMX}/GetAllCounties`, 'SC'],
  ] as const)('%s: a 1 MB field under the cap is refused unparsed', async (connector, path, state) => {
    const { err } = await poll(sourceDef({ id: connector, connector, states: [state], url: `${feed.base}${path}` }));
    expect(err).toMatchObject({ reason: 'too_large', message: expect.stringMatching(/field or tag longer than/) });
  });
});
