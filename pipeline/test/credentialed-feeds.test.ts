// Credentialed rows end to end (issue 26 part 2): a registry's gated Duke and CMP rows name the variables a deployment
// sets; a loopback upstream refuses requests without the credential headers and answers with them. Without the
// variables a polling cycle never asks for the rows; with them it polls both, sending each its header.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import type { CycleSummary } from '../src/cycle/summary.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { recordedRaw as avangridRaw } from '../src/sources/avangrid/recorded.ts';
import { recordedRaw as dukeRaw } from '../src/sources/duke/recorded.ts';
import { closeAll } from './clean-machine.ts';
import { tempDir } from './scripted-feed.ts';
import { hasSharedData, sharedJson } from './shared-data.ts';

const DUKE_VAR = 'OUTAGE_TEST_CRED_DUKE';
const CMP_VAR = 'OUTAGE_TEST_CRED_AVANGRID';
const BASIC = `Basic ${Buffer.from('key:secret').toString('base64')}`;
const hits: Array<{ url: string; authorization?: string; key?: string }> = [];
let server: http.Server;
let base = '';
let tmp: ReturnType<typeof tempDir> | undefined; // made in beforeAll, so a skipped run makes nothing
let answers: Record<string, unknown> = {};

beforeAll(async () => {
  tmp = tempDir('credentialed');
  if (hasSharedData) {
    const cmp = avangridRaw(sharedJson('payloads/avangrid/cmp-towns-2026-08-22T1651Z.json')) as Record<string, unknown>;
    const duke = dukeRaw(sharedJson('payloads/duke/duke-energy-florida-counties-2020-02-07T0550Z.json'));
    answers = { duke, county: cmp.county, town: cmp.town };
  }
  server = http.createServer((req, res) => {
    const key = req.headers['ocp-apim-subscription-key'] as string | undefined;
    hits.push({ url: req.url ?? '', authorization: req.headers.authorization, key });
    const u = new URL(req.url ?? '/', 'http://x');
    const duke = u.pathname === '/outage-maps/v1/counties';
    const allowed = duke ? req.headers.authorization === BASIC : key === 'sub-key';
    if (!allowed) return void res.writeHead(401).end('{"message":"unauthorized"}');
    const body = duke ? answers.duke : answers[u.searchParams.get('filter') ?? ''];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  await closeAll(
    () => server?.closeAllConnections(),
    () => new Promise((r) => (server ? server.close(r) : r(undefined))),
    () => tmp?.remove(),
  );
});

const registry = () =>
  [
    'id,utility,state,connector,url,interval_min,tier,options,customers,status,status_reason',
    `duke-florida,Duke Energy Florida,FL,duke,${base}/outage-maps/v1/counties?jurisdiction=DEF,5,1,"{""credential_env"":""${DUKE_VAR}""}",1801551,gated,set ${DUKE_VAR}`,
    `cmp-maine,Central Maine Power,ME,avangrid,${base}/cmp/v1/public/outagedata?filter=county,10,2,"{""credential_env"":""${CMP_VAR}""}",618572,gated,set ${CMP_VAR}`,
  ].join('\n');

/** One polling cycle over the registry as this process's environment reads it. */
async function cycle(label: string): Promise<{ ids: string[]; summary: CycleSummary }> {
  const { sources, problems } = parseRegistry(registry());
  expect(problems).toEqual([]);
  const p = await Pipeline.open({
    stateDir: path.join(tmp!.dir, label, 'state'),
    outDir: path.join(tmp!.dir, label, 'public'),
    sources,
    clock: manualClock(new Date('2026-09-01T00:00:00Z')),
    simulated: false,
    http: LOOPBACK_HTTP,
  });
  try {
    return { ids: sources.map((s) => s.id), summary: await p.cycle({ all: true }) };
  } finally {
    await p.close();
  }
}

describe.skipIf(!hasSharedData)('credentialed rows in a polling cycle', () => {
  it('are not polled while their variables are unset', async () => {
    vi.stubEnv(DUKE_VAR, '');
    vi.stubEnv(CMP_VAR, '');
    hits.length = 0;
    const { ids, summary } = await cycle('without');
    expect(ids).toEqual([]);
    expect(summary.polled).toBe(0);
    expect(hits).toEqual([]);
  });

  it('are polled, each with its header, once the deployment sets them', async () => {
    vi.stubEnv(DUKE_VAR, 'key:secret');
    vi.stubEnv(CMP_VAR, 'sub-key');
    hits.length = 0;
    const { ids, summary } = await cycle('with');
    expect(ids).toEqual(['duke-florida', 'cmp-maine']);
    expect(summary).toMatchObject({ polled: 2, ok: 2, failed: 0 });
    expect(summary.customersOut).toBe(25_391 + 192);
    expect(hits.map((h) => [new URL(h.url, 'http://x').pathname, h.authorization ?? h.key]).sort()).toEqual([
      ['/cmp/v1/public/outagedata', 'sub-key'],
      ['/cmp/v1/public/outagedata', 'sub-key'],
      ['/outage-maps/v1/counties', BASIC],
    ]);
  });
});
