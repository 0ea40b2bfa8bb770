// Test helper: a loopback HTTP server whose answers a test sets per path (status, body, delay), for feeds that change
// between cycles; and a throwaway project directory removed afterwards.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

export interface ScriptedAnswer {
  status?: number;
  body: string | Buffer;
  headers?: Record<string, string>;
  /** a slow-drip upstream: one byte every `dripMs` */
  dripMs?: number;
  /** headers, then a space every 200 ms until the test calls release(path): then the body */
  held?: boolean;
  /** a host that accepts the connection and never sends headers */
  silent?: boolean;
}

export class ScriptedFeed {
  readonly answers = new Map<string, ScriptedAnswer>();
  readonly hits: string[] = [];
  private readonly releases = new Map<string, () => void>();
  private server: http.Server | null = null;
  private readonly sockets = new Set<import('node:net').Socket>();
  base = '';

  set(pathname: string, answer: ScriptedAnswer | unknown): void {
    const a = answer as ScriptedAnswer;
    this.answers.set(pathname, a && typeof a === 'object' && 'body' in a ? a : { body: JSON.stringify(answer) });
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => this.answer(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x');
    this.hits.push(url.pathname);
    const a = this.answers.get(url.pathname);
    if (!a) {
      res.writeHead(404);
      return void res.end();
    }
    if (a.silent) return;
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers });
    const body = Buffer.from(a.body);
    if (a.held) return this.hold(url.pathname, res, body);
    if (!a.dripMs) return void res.end(body);
    let i = 0;
    const timer = setInterval(() => {
      if (i >= body.length || res.destroyed) {
        clearInterval(timer);
        return void res.end();
      }
      res.write(body.subarray(i, ++i));
    }, a.dripMs);
    res.on('close', () => clearInterval(timer));
  }

  /** Ends the held answers of `pathname` with their body; false when none is waiting. */
  release(pathname: string): boolean {
    const r = this.releases.get(pathname);
    r?.();
    return r !== undefined;
  }

  private hold(pathname: string, res: http.ServerResponse, body: Buffer): void {
    const timer = setInterval(() => res.write(' '), 200);
    const end = () => {
      clearInterval(timer);
      this.releases.delete(pathname);
      if (!res.destroyed) res.end(body);
    };
    this.releases.set(pathname, end);
    res.on('close', () => clearInterval(timer));
    res.write(' ');
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** A temporary directory under the system temp dir, with the project's prefix (the clean-machine check looks for it). */
export function tempDir(label: string): { dir: string; remove: () => void } {
  const dir = makeTempDir(label);
  return { dir, remove: () => removeTempDir(dir) };
}

/** Waits until `cond` holds, checking every 50 ms; fails after `ms`. */
export async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
