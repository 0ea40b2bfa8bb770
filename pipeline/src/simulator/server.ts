// The source simulator: a real HTTP server on 127.0.0.1 serving the simulated utilities in their vendor formats
// (Kubra, NISC, ArcGIS, FPL), driven by the injected clock, with ETags and injectable faults for tests.
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.ts';
import { Scenario, type ScenarioOptions } from './scenario.ts';
import { planUtilities, type SimUtility, type UtilityPlan } from './utilities.ts';
import {
  arcgisPage,
  fplCounties,
  kubraReport,
  kubraTile,
  niscSummary,
  rootQuadkeys,
  type RenderOptions,
} from './formats.ts';

export type Fault = 'timeout' | 'http500' | 'garbage' | 'schema';

export interface SimulatorOptions extends Partial<ScenarioOptions>, Partial<UtilityPlan>, Partial<RenderOptions> {
  clock: Clock;
  port?: number;
  /** accept `POST /_clock?at=<ISO>` to move a frozen simulator (benchmarks driving it from another process) */
  setClock?: (at: Date) => void;
  /** storm hours per clock hour from the simulator's start (default 1; ScenarioOptions.pace) */
  stormPace?: number;
}

export class Simulator {
  readonly scenario: Scenario;
  readonly utilities: SimUtility[];
  private readonly byId: Map<string, SimUtility>;
  private readonly faults = new Map<string, Fault>();
  private readonly render: RenderOptions;
  private server?: http.Server;
  requests = 0;
  baseUrl = '';
  /** rendered bodies of the current minute (the scenario changes at most once a minute): url → body */
  private cache = new Map<string, string>();
  private cacheMinute = -1;

  constructor(private readonly opts: SimulatorOptions) {
    // By default the storm is 8 hours in (nearing landfall) at the hour the simulator starts.
    const epoch = opts.epoch ?? new Date(Math.floor(opts.clock().getTime() / 3_600_000) * 3_600_000 - 8 * 3_600_000);
    this.scenario = new Scenario({
      seed: opts.seed ?? 1,
      epoch,
      periodHours: opts.periodHours ?? 48,
      pace: opts.stormPace && opts.stormPace !== 1 ? { factor: opts.stormPace, from: opts.clock() } : opts.pace,
      incidentSize: opts.incidentSize,
      incidentCap: opts.incidentCap,
      stormScale: opts.stormScale,
    });
    this.utilities = planUtilities(this.scenario, { sources: opts.sources ?? 120 });
    this.byId = new Map(this.utilities.map((u) => [u.id, u]));
    this.render = { areasPerCounty: opts.areasPerCounty ?? 6 };
  }

  setFault(sourceId: string, fault: Fault | null): void {
    if (fault) this.faults.set(sourceId, fault);
    else this.faults.delete(sourceId);
  }

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => this.server!.listen(this.opts.port ?? 0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** The source registry (CSV) for these utilities, pointing at this server. */
  registryCsv(): string {
    const rows = ['id,utility,state,connector,url,interval_min,tier,options,customers'];
    for (const u of this.utilities)
      rows.push(
        [
          u.id,
          csv(u.name),
          u.state,
          u.connector,
          this.urlFor(u),
          u.interval_min,
          u.tier,
          csv(this.optionsFor(u)),
          '',
        ].join(','),
      );
    return `${rows.join('\n')}\n`;
  }

  urlFor(u: SimUtility): string {
    switch (u.connector) {
      case 'kubra':
        return `${this.baseUrl}/kubra/${u.id}/stormcenter/api/v1/stormcenters/${u.id}/views/${u.id}-view/currentState?preview=false`;
      case 'nisc':
        return `${this.baseUrl}/nisc/${u.id}/data/summary.json`;
      case 'arcgis':
        return `${this.baseUrl}/arcgis/${u.id}/arcgis/rest/services/Outages/MapServer/0`;
      case 'fpl':
        return `${this.baseUrl}/fpl/${u.id}/outages.json`;
    }
  }

  private optionsFor(u: SimUtility): string {
    if (u.connector === 'arcgis') return JSON.stringify({ mode: 'incidents', page_size: 200 });
    if (u.connector === 'kubra') return JSON.stringify({ incidents: true, quadkeys: rootQuadkeys(this.scenario, u) });
    return '';
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.requests += 1;
    const url = new URL(req.url ?? '/', 'http://sim');
    const parts = url.pathname.split('/').filter(Boolean);
    if (url.pathname === '/registry.csv') return this.send(req, res, 200, this.registryCsv(), 'text/csv');
    if (url.pathname === '/_clock' && req.method === 'POST' && this.opts.setClock) {
      const at = Date.parse(url.searchParams.get('at') ?? '');
      if (Number.isNaN(at))
        return this.send(req, res, 400, JSON.stringify({ error: 'at must be an ISO-8601 instant' }));
      this.opts.setClock(new Date(at));
      return this.send(req, res, 200, JSON.stringify({ at: new Date(at).toISOString() }));
    }
    const u = this.byId.get(parts[1] ?? '');
    if (!u) return this.send(req, res, 404, JSON.stringify({ error: 'unknown simulated source' }));
    const fault = this.faults.get(u.id);
    if (fault === 'timeout') return void setTimeout(() => res.destroy(), 120_000).unref();
    if (fault === 'http500') return this.send(req, res, 500, 'Internal Server Error', 'text/plain');
    if (fault === 'garbage')
      return this.send(req, res, 200, '<html><body>Service temporarily unavailable</body></html>', 'text/html');
    if (fault === 'schema') return this.send(req, res, 200, JSON.stringify({ unexpected: true, version: 99 }));
    const now = this.opts.clock();
    const minute = Math.floor(now.getTime() / 60_000);
    if (minute !== this.cacheMinute) {
      this.cache = new Map();
      this.cacheMinute = minute;
    }
    const cached = this.cache.get(req.url ?? '');
    if (cached !== undefined) return this.send(req, res, 200, cached);
    const bucket = Math.floor(now.getTime() / 300_000);
    const rest = parts.slice(2).join('/');
    let body: unknown;
    if (u.connector === 'kubra' && rest.endsWith('/currentState')) {
      body = {
        stormcenterDeploymentId: `${u.id}-deployment`,
        data: {
          interval_generation_data: `kubra/${u.id}/data/${bucket}`,
          cluster_interval_generation_data: `kubra/${u.id}/cluster-data/${bucket}`,
        },
      };
    } else if (u.connector === 'kubra' && /\/configuration\/[^/]+$/.test(rest)) {
      body = {
        config: {
          reports: {
            data: { interval_generation_data: [{ id: 'county', type: 'county', title: 'Outages by County' }] },
          },
          layers: {
            data: {
              interval_generation_data: [
                { id: 'thematic-1', type: 'THEMATIC_LAYER' },
                { id: 'cluster-1', type: 'CLUSTER_LAYER_1' },
              ],
            },
          },
        },
      };
    } else if (u.connector === 'kubra' && /^cluster-data\/\d+\/public\/cluster-1\/[0-3]+\.json$/.test(rest)) {
      const tile = kubraTile(this.scenario, u, new Date(Number(parts[3]) * 300_000), parts[6].replace('.json', ''));
      if (!tile) return this.send(req, res, 404, JSON.stringify({ error: 'no outages in this tile' }));
      body = tile;
    } else if (u.connector === 'kubra' && /^data\/\d+\/public\/reports\/county_report\.json$/.test(rest)) {
      body = kubraReport(this.scenario, u, new Date(Number(parts[3]) * 300_000), this.render);
    } else if (u.connector === 'nisc' && rest === 'data/summary.json') {
      body = niscSummary(this.scenario, u, now);
    } else if (u.connector === 'arcgis' && rest.endsWith('/query')) {
      const offset = Number(url.searchParams.get('resultOffset') ?? 0);
      const count = Math.min(Number(url.searchParams.get('resultRecordCount') ?? 1000), 1000);
      body = arcgisPage(this.scenario, u, now, offset, count);
    } else if (u.connector === 'fpl' && rest === 'outages.json') {
      body = fplCounties(this.scenario, u, now);
    } else {
      return this.send(req, res, 404, JSON.stringify({ error: 'no such simulated resource' }));
    }
    const text = JSON.stringify(body);
    this.cache.set(req.url ?? '', text);
    this.send(req, res, 200, text);
  }

  private readonly etags = new Map<string, string>();

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    status: number,
    body: string,
    type = 'application/json',
  ): void {
    let etag = this.etags.get(body);
    if (!etag) {
      etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
      if (this.etags.size > 5_000) this.etags.clear();
      this.etags.set(body, etag);
    }
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, { ETag: etag });
      return void res.end();
    }
    res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      ETag: etag,
      'X-Simulated': 'true',
    });
    res.end(body);
  }
}

const csv = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
