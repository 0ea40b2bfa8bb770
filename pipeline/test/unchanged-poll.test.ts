// An unchanged source costs one request (issue #12 part 1): Kubra's currentState names its data by immutable paths, so
// when it answers 304 and the pipeline holds the snapshot it led to, nothing else is requested or parsed. A chain that
// broke half-way, or a restart, makes the next poll follow the chain in full.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DEFAULT_RETRY } from '../src/sources/retry.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { tempDir } from './scripted-feed.ts';
import { hasSharedData, sharedPath, sourceDef } from './shared-data.ts';

const VIEW = '/stormcenter/api/v1/stormcenters/i/views/v';
const reportPath = (generation: number) => `/data/gen-${generation}/public/reports/county_report.json`;

/** A Kubra deployment on 127.0.0.1 with ETags, whose data generation a test moves on, and answers it can break. */
class KubraSite {
  generation = 1;
  readonly broken = new Set<string>();
  readonly hits: string[] = [];
  /** the paths requested with a validator (If-None-Match) */
  readonly conditional: string[] = [];
  readonly report = hasSharedData ? fs.readFileSync(sharedPath('payloads/kubra/dominion-report.json'), 'utf8') : '';
  private server: http.Server | null = null;
  base = '';

  currentState(): string {
    return JSON.stringify({
      stormcenterDeploymentId: 'dep-1',
      data: { interval_generation_data: `data/gen-${this.generation}` },
    });
  }

  private body(pathname: string): string | null {
    if (pathname === `${VIEW}/currentState`) return this.currentState();
    if (pathname === `${VIEW}/configuration/dep-1`)
      return JSON.stringify({
        config: { reports: { data: { interval_generation_data: [{ id: 'county', type: 'county' }] } } },
      });
    return /^\/data\/gen-\d+\/public\/reports\/county_report\.json$/.test(pathname) ? this.report : null;
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://x');
      this.hits.push(pathname);
      if (req.headers['if-none-match']) this.conditional.push(pathname);
      const body = this.broken.has(pathname) ? null : this.body(pathname);
      if (body === null) {
        res.writeHead(this.broken.has(pathname) ? 500 : 404);
        return void res.end();
      }
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;
      const same = req.headers['if-none-match'] === etag;
      res.writeHead(same ? 304 : 200, { ETag: etag, 'content-type': 'application/json' });
      res.end(same ? undefined : body);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

describe.skipIf(!hasSharedData)('an unchanged Kubra source', () => {
  const site = new KubraSite();
  let tmp: ReturnType<typeof tempDir> | undefined; // made in beforeAll: this body also runs when the suite is skipped
  const clock = manualClock(new Date('2026-09-01T12:00:00Z'));
  const tree = new MemoryTreeWriter(clock());
  let p: Pipeline;
  let expectedOut = 0;
  const open = () =>
    Pipeline.open({
      stateDir: path.join(tmp!.dir, 'state'),
      outDir: path.join(tmp!.dir, 'public'),
      sources: [
        sourceDef({ id: 'dom', connector: 'kubra', states: ['VA', 'NC'], url: `${site.base}${VIEW}/currentState` }),
      ],
      clock,
      simulated: false,
      http: LOOPBACK_HTTP,
      writer: (now) => Object.assign(tree, { now }),
    });
  /** the source's poll at the clock's time, its status, and the paths it requested */
  const poll = async () => {
    const before = site.hits.length;
    const s = await p.cycle({ all: true });
    const [row] = await p.db.all<{ ok: boolean; n: number }>(
      'SELECT ok, http_requests::INT AS n FROM polls WHERE source_id = ? AND polled_at = ?',
      ['dom', clock().toISOString()],
    );
    const [status] = await p.db.all<{ customers_out: number }>(
      "SELECT customers_out FROM source_status WHERE source_id = 'dom'",
    );
    return { s, row, out: status.customers_out, hits: site.hits.slice(before) };
  };

  beforeAll(async () => {
    tmp = tempDir('unchanged-poll');
    await site.start();
    // The report's own top-level regions, summed: what the snapshot must say.
    const areas = (JSON.parse(site.report) as { file_data: { areas: Array<{ cust_a: { val: number } }> } }).file_data
      .areas;
    expect(areas.length).toBeGreaterThan(0);
    expectedOut = areas.reduce((sum, a) => sum + a.cust_a.val, 0);
    p = await open();
  });
  afterAll(async () => {
    await p?.close();
    await site.stop();
    tmp?.remove();
  });

  it('follows the whole chain on its first poll', async () => {
    const { row, out, hits } = await poll();
    expect(hits).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`, reportPath(1)]);
    expect(row).toEqual({ ok: true, n: 3 });
    expect(out).toBe(expectedOut);
  });

  it('a currentState that answers 304 is the only request, is not parsed, and the snapshot is kept', async () => {
    clock.advance(5 * 60_000);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const { s, row, out, hits } = await poll();
      expect(hits).toEqual([`${VIEW}/currentState`]);
      expect(row).toEqual({ ok: true, n: 1 });
      expect(s).toMatchObject({ ok: 1, changed: 0 });
      expect(out).toBe(expectedOut);
      expect(parse.mock.calls.filter(([text]) => text === site.currentState() || text === site.report)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it('after a chain that broke half-way, the next poll follows it in full (no 304 stands for data never read)', async () => {
    site.generation = 2;
    site.broken.add(reportPath(2));
    clock.advance(5 * 60_000);
    const failed = await poll();
    expect(failed.row.ok).toBe(false);
    // the report's 500 is retried within the source's deadline (sources/retry.ts), then the poll fails
    const tries = Array.from({ length: DEFAULT_RETRY.attempts }, () => reportPath(2));
    expect(failed.hits).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`, ...tries]);
    site.broken.clear();
    clock.advance(5 * 60_000);
    const { row, out, hits } = await poll();
    expect(hits).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`, reportPath(2)]);
    expect(row).toEqual({ ok: true, n: 3 });
    expect(out).toBe(expectedOut);
  });

  it('after a restart, follows the chain in full: no snapshot is held yet', async () => {
    await p.close();
    p = await open();
    clock.advance(5 * 60_000);
    const { row, out, hits } = await poll();
    expect(hits).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`, reportPath(2)]);
    expect(row).toEqual({ ok: true, n: 3 });
    expect(out).toBe(expectedOut);
  });

  it("keeps only the bodies of the source's last complete poll: an older generation's report is read whole again", async () => {
    site.generation = 3;
    clock.advance(5 * 60_000);
    expect((await poll()).hits).toContain(reportPath(3));
    // A deployment that went back to an earlier path (never seen in practice): its old body was not kept.
    site.generation = 2;
    clock.advance(5 * 60_000);
    const before = site.conditional.length;
    const { row, out, hits } = await poll();
    expect(hits).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`, reportPath(2)]);
    expect(site.conditional.slice(before)).toEqual([`${VIEW}/currentState`, `${VIEW}/configuration/dep-1`]);
    expect(row).toEqual({ ok: true, n: 3 });
    expect(out).toBe(expectedOut);
  });
});
