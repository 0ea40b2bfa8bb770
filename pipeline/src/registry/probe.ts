// `outage sources probe`: one registry row polled once through the polling HttpClient, every answer recorded.
// A saved probe (DIR/index.json + the answer bodies) is a fixture: replay.ts plays it back through the same fetch code.
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SourceError, UsageError } from '../errors.ts';
import { PollBudget } from '../sources/budget.ts';
import { connectorFor } from '../sources/connectors.ts';
import { HttpClient, type HttpOptions } from '../sources/http.ts';
import { quarantine } from '../sources/quarantine.ts';
import { capIncidents } from '../sources/incident-cap.ts';
import { normalizeReadable } from '../sources/unreadable.ts';
import type { SourceDef } from '../sources/source-def.ts';
import type { Snapshot } from '../sources/snapshot.ts';
import { SourceHttp, sourceHeaders, type FetchResult, type RequestSpec } from '../sources/source-http.ts';

export const PROBE_FORMAT = 'outage-probe/1';
export const INDEX_FILE = 'index.json';

/** One request of the poll as index.json records it. */
export interface ProbeRequest {
  seq: number;
  method: 'GET' | 'POST';
  url: string;
  /** the form or JSON a POST sent (replay matches on it) */
  request_body: string | null;
  /** null when no answer came (timeout, network) */
  status: number | null;
  /** the response headers that matter: content-type, date, etag, last-modified, cache-control, retry-after */
  headers: Record<string, string>;
  /** the body's file name in the probe directory; null when there was no body to keep (non-2xx answers are not read) */
  file: string | null;
  bytes: number | null;
  sha256: string | null;
  /** when the request was sent, and how long until its answer (or failure) */
  at: string;
  ms: number;
  /** `reason: message` when the request failed (a connector may tolerate it: a 404 for an optional file) */
  error: string | null;
}

export interface ProbeIndex {
  format: typeof PROBE_FORMAT;
  probed_at: string;
  user_agent: string;
  source: Pick<SourceDef, 'id' | 'utility' | 'connector' | 'url' | 'states' | 'options' | 'customers'>;
  requests: ProbeRequest[];
  result:
    | { ok: true; customers_out: number | null; counties: number; incidents: number }
    | { ok: false; reason: string; message: string };
}

export interface ProbeRun {
  index: ProbeIndex;
  /** body bytes by file name */
  bodies: Map<string, Buffer>;
  snapshot: Snapshot | null;
  error: SourceError | null;
}

/** The snapshot exactly as the pipeline stores it: normalize, the quarantine step, the incident cap (sources/poll.ts pollSource). */
export function storedSnapshot(source: SourceDef, raw: unknown): Snapshot {
  try {
    return capIncidents(quarantine(normalizeReadable(connectorFor(source.connector), raw, source), source));
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(
      'schema',
      `the ${source.connector} connector could not read the answer: ${(err as Error).message}`,
    );
  }
}

/** `03-county_report.json`: order first, then the URL's last path segment, with an extension from the content type. */
export function bodyFileName(seq: number, url: string, contentType: string | undefined, body: Buffer): string {
  const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? 'index';
  let name =
    last
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 60) || 'body';
  if (!/\.[A-Za-z0-9]{1,5}$/.test(name)) {
    const head = body.subarray(0, 64).toString('utf8').trimStart().toLowerCase();
    const type = (contentType ?? '').toLowerCase();
    name +=
      /json/.test(type) || /^[[{]/.test(head)
        ? '.json'
        : /html/.test(type) || head.startsWith('<!doctype') || head.startsWith('<html')
          ? '.html'
          : /xml/.test(type) || head.startsWith('<?xml')
            ? '.xml'
            : '.txt';
  }
  return `${String(seq).padStart(2, '0')}-${name}`;
}

/** The per-poll HTTP view with a log: `get` is the only override, so getJson/getJsonOrNull run as in polling. */
class RecordingHttp extends SourceHttp {
  readonly log: Array<{ request: ProbeRequest; body: Buffer | null }> = [];
  /** bytes of each body kept after its hash: all to `--save` it, a head when only a diagnosis reads it (verify) */
  keepBytes = Number.POSITIVE_INFINITY;

  override async get(url: string, priority = 0, spec: RequestSpec = {}): Promise<FetchResult> {
    const started = Date.now();
    // Numbered when sent, so requests sent together (Promise.all) keep the order the connector sent them in.
    const request: ProbeRequest = {
      seq: this.log.length + 1,
      method: spec.method ?? 'GET',
      url,
      request_body: spec.body ?? null,
      status: null,
      headers: {},
      file: null,
      bytes: null,
      sha256: null,
      at: new Date(started).toISOString(),
      ms: 0,
      error: null,
    };
    const entry = { request, body: null as Buffer | null };
    this.log.push(entry);
    try {
      const r = await super.get(url, priority, spec);
      // FetchResult.body is the UTF-8 text of the bytes read; JSON is UTF-8 (RFC 8259), so this gives the bytes back.
      const body = Buffer.from(r.body, 'utf8');
      const sha256 = createHash('sha256').update(body).digest('hex');
      Object.assign(entry.request, {
        status: r.status,
        headers: r.headers,
        bytes: body.length,
        sha256,
        file: bodyFileName(entry.request.seq, url, r.headers['content-type'], body),
      });
      // A copied head, not a view: a view would keep the whole body's memory.
      entry.body = body.length > this.keepBytes ? Buffer.from(body.subarray(0, this.keepBytes)) : body;
      // Not UTF-8 (rare: JSON must be): the saved file is the text the connector read, which is what replay serves.
      if (r.bytes !== body.length)
        entry.request.error = `the answer was not UTF-8; ${entry.request.file} holds the text the connector read (${r.bytes} bytes on the wire)`;
      return r;
    } catch (err) {
      const e = err instanceof SourceError ? err : null;
      entry.request.status = e?.status ?? null;
      entry.request.error = e ? `${e.reason}: ${e.message}` : String(err);
      if (e?.retryAfter != null) entry.request.headers = { 'retry-after': String(e.retryAfter) };
      throw err;
    } finally {
      entry.request.ms = Date.now() - started;
    }
  }
}

/** `sources verify`: many rows through one client (its per-host queues), all cut at one total deadline. */
export interface ProbeShared {
  /** used and left open instead of a client of the probe's own */
  client?: HttpClient;
  /** a deadline over every probe (verify's total): when it aborts, the requests fail as at the source deadline */
  signal?: AbortSignal;
  /** bytes of each answer body kept in `bodies` (default all, for `--save`; verify without `--save` keeps a head) */
  keepBytes?: number;
}

/** Polls `source` once with the polling defaults (User-Agent, per-host limits, deadlines); never throws a SourceError. */
export async function probeSource(
  source: SourceDef,
  http: Partial<HttpOptions> = {},
  shared: ProbeShared = {},
): Promise<ProbeRun> {
  const client = shared.client ?? new HttpClient(http);
  const own = AbortSignal.timeout(client.options.sourceDeadlineMs);
  const deadline = shared.signal ? AbortSignal.any([own, shared.signal]) : own;
  setMaxListeners(0, deadline); // one listener per request in flight: tiles run dozens at once (as forSource)
  // Scoped to the row, as polling scopes it: two rows reading one URL never answer each other with a 304.
  const budget = PollBudget.of(source.options);
  const recorder = new RecordingHttp(client, deadline, sourceHeaders(source.options), source.id, budget);
  if (shared.keepBytes !== undefined) recorder.keepBytes = shared.keepBytes;
  const probedAt = new Date().toISOString();
  let snapshot: Snapshot | null = null;
  let error: SourceError | null = null;
  try {
    const raw = await connectorFor(source.connector).fetch({ http: recorder, source, priority: 4 - source.tier });
    snapshot = storedSnapshot(source, raw);
  } catch (err) {
    error = err instanceof SourceError ? err : new SourceError('bad_body', (err as Error).message); // as pipeline.ts records it
  } finally {
    if (!shared.client) await client.close();
  }
  const bodies = new Map<string, Buffer>();
  for (const { request, body } of recorder.log) if (request.file && body) bodies.set(request.file, body);
  const { id, utility, connector, url, states, options, customers } = source;
  const result: ProbeIndex['result'] = snapshot
    ? {
        ok: true,
        customers_out: snapshot.customers_out,
        counties: snapshot.counties.length,
        incidents: snapshot.incidents.length,
      }
    : { ok: false, reason: error!.reason, message: error!.message };
  const index: ProbeIndex = {
    format: PROBE_FORMAT,
    probed_at: probedAt,
    user_agent: client.options.userAgent,
    source: { id, utility, connector, url, states, options, customers },
    requests: recorder.log.map((l) => l.request),
    result,
  };
  return { index, bodies, snapshot, error };
}

/**
 * Writes the bodies, then index.json last (a directory with an index is complete). A directory that already holds a
 * saved probe is replaced; any other non-empty directory is refused, so nothing of the user's is deleted.
 */
export function saveProbe(dir: string, run: Pick<ProbeRun, 'index' | 'bodies'>): void {
  if (existsSync(dir)) {
    const entries = readdirSync(dir);
    const previous = entries.includes(INDEX_FILE) ? previousFiles(path.join(dir, INDEX_FILE)) : null;
    const foreign = entries.filter((e) => e !== INDEX_FILE && !previous?.has(e));
    if (foreign.length)
      throw new UsageError(
        `--save ${dir}: the directory holds files that are not a saved probe (${foreign.slice(0, 3).join(', ')}); give a new or empty directory`,
      );
    for (const e of entries) rmSync(path.join(dir, e), { force: true });
  }
  mkdirSync(dir, { recursive: true });
  for (const [file, body] of run.bodies) writeFileSync(path.join(dir, file), body);
  writeFileSync(path.join(dir, INDEX_FILE), `${JSON.stringify(run.index, null, 2)}\n`);
}

function previousFiles(indexFile: string): Set<string> | null {
  try {
    const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { requests?: Array<{ file?: unknown }> };
    return new Set((index.requests ?? []).map((r) => r.file).filter((f): f is string => typeof f === 'string'));
  } catch {
    return null;
  }
}
