// The fuzz's loopback upstream: serves a fixture's routes on 127.0.0.1, the current mutation applied to the answers of
// one route; stalled answers stay open until the client gives up or the server stops.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Route } from './fixtures.ts';
import type { Mutation } from './mutations.ts';
import { applyMutation, type Served } from './apply.ts';

/** One byte per tick of a slow-drip answer. */
const DRIP_MS = 250;
const CHUNK = 64 * 1024;

export class FuzzUpstream {
  /** the mutation applied to answers of routes[mutation.route]; null serves the recordings as they are */
  mutation: Mutation | null = null;
  requests = 0;
  base = '';
  private server: http.Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `maxBytes`: the client's size cap, so oversized answers pass it and amplified ones stay under it. */
  constructor(
    readonly routes: Route[],
    private readonly maxBytes: number,
  ) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.answer(req, res));
    this.server.keepAliveTimeout = 60_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.resume();
    this.requests += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    const i = this.routes.findIndex((r) => r.path === url.pathname && (r.method ?? 'GET') === req.method);
    if (i < 0) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const m = this.mutation && this.mutation.route % this.routes.length === i ? this.mutation : null;
    this.send(res, applyMutation(m, this.routes[i].answer(url), this.maxBytes));
  }

  private send(res: http.ServerResponse, s: Served): void {
    if (s.stall === 'no_answer') return;
    res.writeHead(s.status, {
      ...s.headers,
      ...(s.declareLength && !s.stall ? { 'content-length': String(s.body.length) } : {}),
    });
    if (s.stall === 'headers_only') return void res.flushHeaders();
    if (s.stall === 'half_body') return void res.write(s.body.subarray(0, Math.floor(s.body.length / 2)));
    if (s.stall === 'drip') {
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= s.body.length) {
          clearInterval(timer);
          this.timers.delete(timer);
          return void (res.destroyed || res.end());
        }
        res.write(s.body.subarray(at, ++at));
      }, DRIP_MS);
      this.timers.add(timer);
      return;
    }
    if (s.declareLength) return void res.end(s.body);
    for (let at = 0; at < s.body.length; at += CHUNK) res.write(s.body.subarray(at, at + CHUNK));
    res.end();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
  }
}
