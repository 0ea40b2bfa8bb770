// A seeded fault-injecting HTTP proxy in front of the simulator (the fault soak, `npm run soak`): every source gets its
// own loopback port (its own "host"), and a request may answer 5xx, stall past the client's request deadline, send a
// body no connector can read, or find its host down. Decisions hash (seed, source, URL, simulated time), not arrival
// order, so a rerun injects the same faults into the same requests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../clock.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { unit } from './random.ts';

export interface FaultRates {
  /** share of requests answered 500, 502, 503 or 504 */
  http5xx: number;
  /** share held past the request deadline: no headers at all, or headers and half the body then silence */
  timeout: number;
  /** share answered 200 with a body no connector can read: an HTML error page, truncated JSON, binary, or nothing */
  garbage: number;
}

export const FAULT_KINDS = ['http5xx', 'stall_headers', 'stall_body', 'html', 'truncated', 'binary', 'empty'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];
const GARBAGE: FaultKind[] = ['html', 'truncated', 'binary', 'empty'];

export interface FaultProxyOptions {
  /** the simulator's base URL (http://127.0.0.1:port) */
  target: string;
  clock: Clock;
  seed: number;
  rates: FaultRates;
  /** wall ms a stalled response is held before its socket is dropped: longer than the client's request deadline */
  holdMs: number;
  /** a factor on all three rates for one request (default 1): keeps a long chain of requests from always failing */
  scale?: (sourceId: string, url: string) => number;
}

interface Upstream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class FaultProxy {
  readonly injected = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  forwarded = 0;
  private readonly hosts = new Map<string, { server: http.Server; port: number; up: boolean }>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly held = new Set<NodeJS.Timeout>();
  /** sources whose host accepts connections and never answers (a dead host) */
  private readonly silent = new Set<string>();
  /** requests seen at the current simulated instant (a URL asked twice in one cycle gets its own draw) */
  private seen = new Map<string, number>();
  private seenAt = -1;

  constructor(private readonly opts: FaultProxyOptions) {}

  /** Opens one loopback listener per source and returns the sources pointed at them. */
  async start(sources: SourceDef[]): Promise<SourceDef[]> {
    for (const s of sources) {
      const server = http.createServer((req, res) => this.handle(s.id, req, res));
      await listen(server, 0);
      this.hosts.set(s.id, { server, port: (server.address() as AddressInfo).port, up: true });
    }
    const origin = new URL(this.opts.target).origin;
    return sources.map((s) => ({ ...s, url: s.url.replace(origin, `http://127.0.0.1:${this.hosts.get(s.id)!.port}`) }));
  }

  /** Takes a source's host down (connections refused, open ones dropped) or brings it back on the same port. */
  async setDown(sourceId: string, down: boolean): Promise<void> {
    const h = this.hosts.get(sourceId);
    if (!h) throw new Error(`No proxied host for source \`${sourceId}\`: pass it to start() first.`);
    if (down === !h.up) return;
    if (down) {
      h.up = false;
      await new Promise<void>((resolve) => {
        h.server.close(() => resolve());
        h.server.closeAllConnections();
      });
    } else {
      await listen(h.server, h.port); // EADDRINUSE here means another process took the port meanwhile
      h.up = true;
    }
  }

  /** A dead host: connections accepted, no answer ever sent (its sockets close when the proxy stops). */
  setSilent(sourceId: string, silent: boolean): void {
    if (silent) this.silent.add(sourceId);
    else this.silent.delete(sourceId);
  }

  async stop(): Promise<void> {
    for (const t of this.held) clearTimeout(t);
    this.held.clear();
    for (const h of this.hosts.values()) {
      if (!h.up) continue;
      h.up = false;
      await new Promise<void>((resolve) => {
        h.server.close(() => resolve());
        h.server.closeAllConnections();
      });
    }
    this.agent.destroy();
  }

  private pick(sourceId: string, url: string): FaultKind | null {
    const at = this.opts.clock().getTime();
    if (at !== this.seenAt) [this.seen, this.seenAt] = [new Map(), at];
    const key = `${sourceId}|${url}|${at}`;
    const n = (this.seen.get(key) ?? 0) + 1;
    this.seen.set(key, n);
    const u = unit(this.opts.seed, 'fault', key, n);
    const v = unit(this.opts.seed, 'variant', key, n);
    const { http5xx, timeout, garbage } = this.opts.rates;
    // One draw whatever k: a run scaled down faults a subset of the requests the unscaled run faults.
    const k = this.opts.scale?.(sourceId, url) ?? 1;
    if (u < http5xx * k) return 'http5xx';
    if (u < (http5xx + timeout) * k) return v < 0.5 ? 'stall_headers' : 'stall_body';
    if (u < (http5xx + timeout + garbage) * k) return GARBAGE[Math.floor(v * GARBAGE.length)];
    return null;
  }

  private handle(sourceId: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    if (this.silent.has(sourceId)) return;
    const fault = this.pick(sourceId, req.url ?? '/');
    // Counted where applied: a cut needs a body, so a truncation drawn for a 404 tile passes it through uncounted.
    if (fault && fault !== 'truncated') this.injected[fault] += 1;
    const plain = (status: number, body: Buffer | string, type: string) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    switch (fault) {
      case 'http5xx':
        return plain(
          [500, 502, 503, 504][Math.floor(unit(this.opts.seed, 'status', req.url ?? '', this.seenAt) * 4)],
          'upstream error (injected)',
          'text/plain',
        );
      case 'stall_headers':
        return this.hold(res);
      case 'html':
        return plain(200, '<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>', 'text/html');
      case 'binary':
        return plain(
          200,
          Buffer.from(
            Array.from({ length: 64 }, (_, i) => Math.floor(unit(this.opts.seed, 'byte', req.url ?? '', i) * 256)),
          ),
          'application/json',
        );
      case 'empty':
        return plain(200, '', 'application/json');
    }
    // The rest need the real answer; a fault that cuts the body asks for it unconditionally (a 304 has none to cut).
    this.forward(
      req,
      fault !== null,
      (up) => {
        const cut = Math.floor(up.body.length / 2);
        if (fault === 'truncated' && up.status === 200) {
          this.injected.truncated += 1;
          return plain(200, up.body.subarray(0, cut), 'application/json');
        }
        if (fault === 'stall_body' && up.body.length > 1) {
          res.writeHead(up.status, { ...up.headers, 'content-length': up.body.length });
          res.write(up.body.subarray(0, cut));
          return this.hold(res);
        }
        if (fault === 'stall_body') return this.hold(res);
        res.writeHead(up.status, up.headers);
        res.end(up.body);
      },
      () => res.destroy(),
    );
  }

  /** Holds a response past the client's deadline, then drops it; a client that gives up first frees it at once. */
  private hold(res: http.ServerResponse): void {
    const t = setTimeout(() => {
      this.held.delete(t);
      res.destroy();
    }, this.opts.holdMs);
    this.held.add(t);
    res.once('close', () => {
      clearTimeout(t);
      this.held.delete(t);
    });
  }

  private forward(
    req: http.IncomingMessage,
    unconditional: boolean,
    done: (up: Upstream) => void,
    fail: () => void,
  ): void {
    this.forwarded += 1;
    const headers = { ...req.headers };
    if (unconditional) {
      delete headers['if-none-match'];
      delete headers['if-modified-since'];
    }
    const target = new URL(this.opts.target);
    const up = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers, agent: this.agent },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...kept } = r.headers;
        r.on('end', () => done({ status: r.statusCode ?? 502, headers: kept, body: Buffer.concat(chunks) }));
        r.on('error', fail);
      },
    );
    up.on('error', fail);
    req.pipe(up);
  }
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}
