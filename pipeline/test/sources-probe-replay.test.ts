// `sources probe` on the recorded real payloads, served over 127.0.0.1: for every connector a saved probe replays
// offline to the snapshot that polling the same bodies gives (the cases are in probe-cases/).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { connectorFor } from '../src/sources/connectors.ts';
import { DEFAULT_HTTP, HttpClient, LOOPBACK_HTTP } from '../src/sources/http.ts';
import { quarantine } from '../src/sources/quarantine.ts';
import { probeSource, saveProbe, type ProbeIndex } from '../src/registry/probe.ts';
import { loadProbe, replayProbe, savedSourceDef } from '../src/registry/replay.ts';
import { CONNECTORS, type SourceDef } from '../src/sources/source-def.ts';
import type { Snapshot } from '../src/sources/snapshot.ts';
import { loadAtlas } from '../src/geo/counties.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';
import { hasSharedData } from './shared-data.ts';
import { type Case, type Reply, cases, keyOf } from './probe-cases.ts';

/** A loopback upstream: answers from `routes`, 404 otherwise; counts hits and keeps the bytes it sent per request. */
async function upstream(routes: () => Record<string, Reply>) {
  const hits: string[] = [];
  const sent = new Map<string, Buffer>();
  const agents = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = keyOf(req.method ?? 'GET', req.url ?? '/');
      hits.push(key);
      agents.add(String(req.headers['user-agent']));
      const r = routes()[key] ?? routes()[`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`];
      if (!r) return void res.writeHead(404).end();
      sent.set(key, r.body);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers }).end(r.body);
    });
  });
  server.keepAliveTimeout = 60_000; // the first county lookup blocks the loop for seconds: keep pooled sockets open
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const close = () =>
    closeAll(
      () => server.closeAllConnections(),
      () => new Promise((r) => server.close(r)),
    );
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, sent, agents, close };
}

/** What polling does with the same bodies: the connector's fetch and normalize, then the quarantine step. */
async function poll(source: SourceDef): Promise<Snapshot> {
  const client = new HttpClient(LOOPBACK_HTTP);
  try {
    const c = connectorFor(source.connector);
    return quarantine(c.normalize(await c.fetch({ http: client.forSource(), source, priority: 0 }), source), source);
  } finally {
    await client.close();
  }
}

describe.skipIf(!hasSharedData)(
  'a saved probe replays offline to the snapshot polling gives, for every connector',
  () => {
    let routes: Record<string, Reply> = {};
    let a: Awaited<ReturnType<typeof upstream>>;
    let b: Awaited<ReturnType<typeof upstream>>;
    let all: Case[] = [];
    let dir = '';
    beforeAll(async () => {
      loadAtlas();
      dir = makeTempDir('probe-replay');
      [a, b] = await Promise.all([upstream(() => routes), upstream(() => routes)]);
      all = cases(a.base, b.base);
      routes = Object.assign({}, ...all.map((c) => c.routes));
    });
    afterAll(async () => {
      await closeAll(
        () => a?.close(),
        () => b?.close(),
        () => removeTempDir(dir),
      );
    });

    it('covers every connector of connectors.ts', () => {
      expect(all.map((c) => c.source.connector).sort()).toEqual([...CONNECTORS].sort());
    });

    it.each([...CONNECTORS])('%s', async (name) => {
      const c = all.find((x) => x.source.connector === name)!;
      const polled = await poll(c.source);
      c.check(polled);
      expect(polled.counties.length + polled.incidents.length + polled.areas.length).toBeGreaterThan(0);

      const run = await probeSource(c.source);
      expect(run.error).toBeNull();
      expect(run.snapshot).toEqual(polled);
      const saved = path.join(dir, name);
      saveProbe(saved, run);
      const index = JSON.parse(fs.readFileSync(path.join(saved, 'index.json'), 'utf8')) as ProbeIndex;
      const withBody = index.requests.filter((r) => r.file);
      expect(withBody.length).toBeGreaterThan(0);
      for (const r of withBody) {
        const bytes = fs.readFileSync(path.join(saved, r.file!));
        const key = keyOf(r.method, r.url);
        expect(
          bytes.equals([a, b].find((u) => r.url.startsWith(u.base))!.sent.get(key)!),
          `${r.file} is byte-exact`,
        ).toBe(true);
        expect(r.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
      expect(new Set([...a.agents, ...b.agents])).toEqual(new Set([DEFAULT_HTTP.userAgent]));

      const before = a.hits.length + b.hits.length;
      const loaded = loadProbe(saved);
      const replay = await replayProbe(loaded, savedSourceDef(loaded, { connector: c.source.connector }));
      expect(a.hits.length + b.hits.length, 'the replay never reaches the upstream').toBe(before);
      expect(replay.snapshot).toEqual(polled);
      expect(replay.served.length).toBe(index.requests.length);
    });

    it('ifactor: the probe records the 404 of the half-written directory, and the replay steps back the same way', () => {
      const index = JSON.parse(fs.readFileSync(path.join(dir, 'ifactor', 'index.json'), 'utf8')) as ProbeIndex;
      const missing = index.requests.filter((r) => r.status === 404);
      expect(missing.map((r) => new URL(r.url).pathname)).toEqual([
        '/coned/ifd/2026_10_08_19_05_00/report_westchester.json',
      ]);
      expect(missing[0]).toMatchObject({
        file: null,
        error: expect.stringMatching(/^http_status: .*answered HTTP 404/),
      });
    });

    it('outageentry: index.json keeps the POST form, and a replay with other options misses it and says so', async () => {
      const saved = loadProbe(path.join(dir, 'outageentry'));
      expect(saved.index.requests[0]).toMatchObject({
        method: 'POST',
        request_body: 'action=get&client=svec&target=cfa_device_markers&serviceIndex=1',
      });
      const other = savedSourceDef(saved, { connector: 'outageentry', options: { client: 'GREYS' } });
      await expect(replayProbe(saved, other)).rejects.toThrow(
        /answered HTTP 404.*holds no answer for POST http:\/\/127\.0\.0\.1:\d+\/Outage\/ajax\/ajaxShellOut\.php \(body "action=get&client=GREYS/,
      );
    });
  },
);
