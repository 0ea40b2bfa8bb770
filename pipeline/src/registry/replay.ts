// A saved probe replayed offline: the connector's own fetch runs unchanged against loopback servers that answer each
// request (method + URL + POST body) with the saved status, headers and body bytes. HttpClient pins its own undici
// Agent, so a MockAgent could not be slipped in without changing http.ts; real sockets also replay headers (the Date
// that WEC and PacifiCorp read) exactly as polling sees them. Every origin the connector can know of (the row's url,
// URLs in its options, the recorded requests) is rewritten to a loopback server, so a replay cannot reach the network.
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { SourceError, UsageError } from '../errors.ts';
import { connectorFor } from '../sources/connectors.ts';
import { checkRegistry } from './check.ts';
import { jsonFixtureParser, type CheckOptions, type FixtureParser, type FixtureResult } from './fixtures.ts';
import type { CheckRow } from './findings.ts';
import { HttpClient, LOOPBACK_HTTP } from '../sources/http.ts';
import { INDEX_FILE, storedSnapshot } from './probe.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { sourceHeaders } from '../sources/source-http.ts';
import { PollBudget } from '../sources/budget.ts';

/** index.json as replay reads it: what `probe --save` writes, or the few fields a person fills in by hand. */
const indexSchema = z.object({
  source: z
    .object({
      id: z.string().optional(),
      utility: z.string().optional(),
      connector: z.string().optional(),
      url: z.string().optional(),
      states: z.array(z.string()).optional(),
      options: z.record(z.string(), z.unknown()).optional(),
      customers: z.number().nullable().optional(),
    })
    .default({}),
  requests: z
    .array(
      z.object({
        method: z.enum(['GET', 'POST']).default('GET'),
        url: z.url({ protocol: /^https?$/, error: 'must be the absolute http(s) URL the connector requested' }),
        request_body: z.string().nullable().default(null),
        status: z.number().int().min(100).max(599).nullable().default(200),
        headers: z.record(z.string(), z.string()).default({}),
        file: z.string().min(1).nullable().default(null),
      }),
    )
    .min(1, 'lists no request; a saved probe needs at least one answer'),
});
export type SavedIndex = z.infer<typeof indexSchema>;

export interface Answer {
  method: 'GET' | 'POST';
  url: string;
  body: string | null;
  status: number | null;
  headers: Record<string, string>;
  file: string | null;
  data: Buffer | null;
}
export interface SavedProbe {
  dir: string;
  index: SavedIndex;
  answers: Answer[];
}
export interface Replay {
  raw: unknown;
  snapshot: Snapshot;
  served: Answer[];
  misses: string[];
}

/** Reads and checks DIR/index.json and every body it names; a problem names the file and the field. */
export function loadProbe(dir: string): SavedProbe {
  const indexFile = path.join(dir, INDEX_FILE);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (missing)
      throw new UsageError(
        `${dir} has no ${INDEX_FILE}: save one with \`outage sources probe ID --save ${dir}\`, or write it by hand (see CONTRIBUTING.md)`,
      );
    throw new SourceError('bad_body', `${indexFile} is not JSON: ${(err as Error).message}`);
  }
  const r = indexSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new SourceError('schema', `${indexFile}: ${i.path.join('.') || '(root)'}: ${i.message}`);
  }
  const answers = r.data.requests.map((q, n): Answer => {
    const field = `${indexFile}: requests.${n}.file`;
    if (q.file === null) {
      if (q.status !== null && q.status >= 200 && q.status < 300)
        throw new SourceError('schema', `${field}: a ${q.status} answer needs the file that holds its body`);
      return { ...q, body: q.request_body, data: null };
    }
    const file = path.resolve(dir, q.file);
    if (path.relative(dir, file).startsWith('..'))
      throw new SourceError('schema', `${field}: \`${q.file}\` leaves the probe directory; name a file inside it`);
    try {
      return { ...q, body: q.request_body, data: readFileSync(file) };
    } catch (err) {
      throw new SourceError('schema', `${field}: cannot read \`${q.file}\`: ${(err as Error).message}`);
    }
  });
  return { dir, index: r.data, answers };
}

/** The row a saved probe was taken for, with the caller's connector, states and options where given. */
export function savedSourceDef(saved: SavedProbe, over: Partial<SourceDef> & Pick<SourceDef, 'connector'>): SourceDef {
  const s = saved.index.source;
  const states = over.states ?? s.states;
  if (!states?.length)
    throw new UsageError(
      `${path.join(saved.dir, INDEX_FILE)} names no states (source.states): give --states, e.g. --states "WI;MI"`,
    );
  return {
    id: s.id ?? path.basename(saved.dir),
    utility: s.utility ?? path.basename(saved.dir),
    interval_min: 15,
    tier: 3,
    customers: s.customers ?? null,
    eia_ids: [],
    options: s.options ?? {},
    url: s.url ?? saved.answers[0].url,
    ...over,
    states,
  };
}

const ORIGIN = /^https?:\/\/[^/?#]+/i;
const originOf = (s: string): string | null => {
  const m = ORIGIN.exec(s);
  try {
    return m ? new URL(m[0]).origin : null;
  } catch {
    return null;
  }
};
const rewrite = (s: string, map: Map<string, string>): string => {
  const o = originOf(s);
  return o && map.has(o) ? map.get(o)! + s.slice(ORIGIN.exec(s)![0].length) : s;
};
/** Every string of an options object, rewritten (URLs in options: FPL's nw_url, a referer). */
function mapStrings(v: unknown, f: (s: string) => string): unknown {
  if (typeof v === 'string') return f(v);
  if (Array.isArray(v)) return v.map((x) => mapStrings(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapStrings(x, f)]));
  return v;
}

/** What a request is matched on: method, path and query (as WHATWG URL spells them on both sides), a POST's body. */
function keyOf(method: string, url: string, body: string | null): string {
  const u = new URL(url, 'http://replay.invalid');
  return `${method} ${u.pathname}${u.search}${method === 'POST' ? `\n${body ?? ''}` : ''}`;
}

/** One loopback server for one origin: each request gets the saved answers for its key in order, the last repeated. */
async function serveOrigin(
  origin: string,
  answers: Answer[],
  served: Answer[],
  misses: string[],
): Promise<{ server: http.Server; local: string }> {
  const queues = new Map<string, Answer[]>();
  for (const a of answers) {
    const key = keyOf(a.method, a.url, a.body);
    queues.set(key, [...(queues.get(key) ?? []), a]);
  }
  const used = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const body = Buffer.concat(chunks).toString('utf8');
      const key = keyOf(method, req.url ?? '/', body);
      const list = queues.get(key);
      if (!list) {
        misses.push(
          `${method} ${origin}${req.url ?? '/'}${method === 'POST' ? ` (body ${JSON.stringify(body.slice(0, 120))})` : ''}`,
        );
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not in the saved probe');
      }
      const n = used.get(key) ?? 0;
      used.set(key, n + 1);
      const a = list[Math.min(n, list.length - 1)];
      served.push(a);
      if (a.status === null) return void res.socket?.destroy(); // the probe got no answer: neither does the replay
      res.sendDate = false; // the saved Date (the upstream's clock) or none, never the replay's
      res.writeHead(a.status, a.headers).end(a.data ?? undefined);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, local: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Replays a saved probe through `source.connector`'s fetch and normalize; failures name the probe and its files. */
export async function replayProbe(saved: SavedProbe, source: SourceDef): Promise<Replay> {
  const origins = new Set<string>();
  for (const s of [source.url, ...saved.answers.map((a) => a.url)]) if (originOf(s)) origins.add(originOf(s)!);
  mapStrings(source.options, (s) => {
    if (originOf(s)) origins.add(originOf(s)!);
    return s;
  });
  const served: Answer[] = [];
  const misses: string[] = [];
  const hosts = await Promise.all(
    [...origins].map(async (o) => ({
      origin: o,
      ...(await serveOrigin(
        o,
        saved.answers.filter((a) => originOf(a.url) === o),
        served,
        misses,
      )),
    })),
  );
  const map = new Map(hosts.map((h) => [h.origin, h.local]));
  const local: SourceDef = {
    ...source,
    url: rewrite(source.url, map),
    options: mapStrings(source.options, (s) => rewrite(s, map)) as Record<string, unknown>,
  };
  const client = new HttpClient(LOOPBACK_HTTP);
  try {
    const fetched = client.forSource(
      AbortSignal.timeout(client.options.sourceDeadlineMs),
      sourceHeaders(local.options),
      '',
      PollBudget.of(local.options),
    );
    let raw: unknown;
    try {
      raw = await connectorFor(source.connector).fetch({ http: fetched, source: local, priority: 0 });
    } catch (err) {
      throw explain(err, saved, hosts, misses, 'while replaying its requests');
    }
    try {
      return { raw, snapshot: storedSnapshot(source, raw), served, misses };
    } catch (err) {
      throw explain(
        err,
        saved,
        hosts,
        [],
        `in its answers (${[...new Set(served.map((a) => a.file).filter(Boolean))].join(', ')})`,
      );
    }
  } finally {
    await client.close();
    for (const h of hosts) h.server.closeAllConnections();
    await Promise.all(hosts.map((h) => new Promise((r) => h.server.close(r))));
  }
}

/** The failure with the real URLs put back, the saved file of a URL it names, and the requests the probe lacks. */
function explain(
  err: unknown,
  saved: SavedProbe,
  hosts: Array<{ origin: string; local: string }>,
  misses: string[],
  where: string,
): SourceError {
  const e = err instanceof SourceError ? err : new SourceError('schema', (err as Error).message);
  let message = e.message;
  for (const h of hosts) message = message.split(h.local).join(h.origin);
  const named = saved.answers.find((a) => a.file && message.includes(a.url));
  if (named) message += ` (saved as ${named.file})`;
  if (misses.length) message += `; the saved probe holds no answer for ${misses.join(', ')}`;
  return new SourceError(e.reason, `${saved.dir}: ${where}: ${message}`, e.status, e.retryAfter);
}

export const isProbeDir = (p: string): boolean => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** One row's probe-directory fixture replayed through the row's connector. */
async function replayFixture(row: CheckRow & { source: SourceDef }, dir: string): Promise<FixtureResult> {
  try {
    const saved = loadProbe(dir);
    // A fixture probed at another url (borrowed from another utility of the platform) is replayed as it was probed:
    // its url and options ask for what was saved; the row's connector and states read it.
    const url = saved.index.source.url ?? saved.answers[0].url;
    const source =
      url === row.source.url
        ? row.source
        : { ...row.source, url, options: saved.index.source.options ?? row.source.options };
    const { snapshot, served } = await replayProbe(saved, source);
    return {
      ok: true,
      message: `${snapshot.counties.length} counties (${served.length} saved answers replayed)`,
      counties: snapshot.counties.map((c) => c.fips),
    };
  } catch (err) {
    return {
      ok: false,
      message: `the ${row.source.connector} connector cannot replay ${row.record.fixture}: ${(err as Error).message.split('\n')[0]}`,
    };
  }
}

/**
 * check's FixtureParser with saved probe directories replayed. check is synchronous and replay is not, so a first
 * pass of the same check collects the rows whose fixture is a directory, they are replayed, and the parser answers
 * them from the results (other fixtures go to `base`, one JSON document by default).
 */
export async function replayFixtures(registryFile: string, options: CheckOptions): Promise<FixtureParser> {
  const base = options.parseFixture ?? jsonFixtureParser();
  let registryText: string;
  try {
    registryText = readFileSync(registryFile, 'utf8');
  } catch {
    return base; // checkRegistryFile reports the unreadable file
  }
  const wanted: Array<{ row: CheckRow & { source: SourceDef }; dir: string }> = [];
  const collect: FixtureParser = (row, file) => {
    if (isProbeDir(file)) wanted.push({ row, dir: file });
    return { ok: true, message: '' };
  };
  try {
    checkRegistry(registryText, { ...options, eia: null, parseFixture: collect });
  } catch {
    return base; // not CSV at all: the real check says so
  }
  const results = new Map<string, FixtureResult>();
  for (const { row, dir } of wanted) results.set(`${row.line}\0${dir}`, await replayFixture(row, dir));
  return (row, file) => results.get(`${row.line}\0${file}`) ?? base(row, file);
}
