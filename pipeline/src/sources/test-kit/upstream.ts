// Connector test kit: a loopback upstream on 127.0.0.1 that answers like a utility's server, from recorded payloads
// held by route (path + query, exactly as requested), and keeps what each request carried for the test to assert.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the upstream saw it: its url (path + query), method, headers and whole body. */
export interface UpstreamRequest {
  url: string;
  /** the url's path alone */
  path: string;
  query: URLSearchParams;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the upstream answers: a body (text, bytes, or `json` serialised), its status, type and headers. */
export interface Answer {
  status?: number;
  body?: string | Buffer;
  json?: unknown;
  /** content-type; else the upstream's `type` ('' for none) */
  type?: string;
  headers?: Record<string, string>;
  /** sent as ETag; a request whose If-None-Match holds it is answered 304 without a body */
  etag?: string;
}

export type Route = Answer | ((req: UpstreamRequest) => Answer | undefined);

export interface UpstreamSpec<H> {
  /** answers by url (path + query, as requested); a function reads the request */
  routes?: Record<string, Route>;
  /** asked when no route names the url: an answer by path, query or body */
  route?: (req: UpstreamRequest) => Answer | undefined;
  /** asked before the routes: a refusal (a missing credential, a wrong method or Accept), else undefined */
  refuse?: (req: UpstreamRequest) => Answer | undefined;
  /** the answer to anything else (default: a bare 404) */
  fallback?: Answer;
  /** the content-type of every answer that names none */
  type?: string;
  /** headers sent with every answer (e.g. an HTTP Date the connector dates its answer by) */
  headers?: Record<string, string>;
  /** an ETag on every body (a hash of it), answered 304 on a match, as static file hosts do */
  etags?: boolean;
  /** what the test keeps of each request (default: its url) */
  hit?: (req: UpstreamRequest) => H;
}

const bodyOf = (a: Answer): string | Buffer | undefined => (a.json !== undefined ? JSON.stringify(a.json) : a.body);
const hashTag = (body: string | Buffer) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

export class Upstream<H = string> {
  /** the answers by url; a test may set one between requests */
  readonly routes: Map<string, Route>;
  /** what the test keeps of each request, in the order they came */
  readonly hits: H[] = [];
  base = '';
  private server: http.Server | null = null;

  constructor(private readonly spec: UpstreamSpec<H>) {
    this.routes = new Map(Object.entries(spec.routes ?? {}));
  }

  /** Sets the answer at `url` (path + query). */
  set(url: string, route: Route): void {
    this.routes.set(url, route);
  }

  async start(): Promise<void> {
    const server = http.createServer((req, res) => this.serve(req, res));
    // A connector's poll may idle while a test normalises; a pooled connection must outlive that.
    server.keepAliveTimeout = 60_000;
    this.server = server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  private serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const { pathname, searchParams } = new URL(url, 'http://upstream');
      const seen = { url, path: pathname, query: searchParams, method: req.method ?? '', headers: req.headers, body };
      try {
        this.hits.push(this.spec.hit ? this.spec.hit(seen) : (url as H));
        this.send(req, res, this.answerTo(seen));
      } catch (err) {
        // A test's route that throws answers 500 naming the error, rather than leaving the request hanging.
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`test upstream: ${String(err)}`);
      }
    });
  }

  private answerTo(req: UpstreamRequest): Answer {
    const refusal = this.spec.refuse?.(req);
    if (refusal) return refusal;
    const route = this.routes.get(req.url);
    const answer = typeof route === 'function' ? route(req) : route;
    return answer ?? this.spec.route?.(req) ?? this.spec.fallback ?? { status: 404 };
  }

  private send(req: http.IncomingMessage, res: http.ServerResponse, a: Answer): void {
    const body = bodyOf(a);
    const etag = a.etag ?? (this.spec.etags && body !== undefined ? hashTag(body) : undefined);
    const type = a.type ?? this.spec.type;
    const headers: Record<string, string> = { ...this.spec.headers, ...a.headers };
    if (type) headers['content-type'] = type;
    if (etag) headers.etag = etag;
    if (etag && req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
    res.writeHead(a.status ?? 200, headers).end(body);
  }
}
