// `outage sources verify`: every active row probed once through one polling HttpClient (its per-host limits and
// deadlines) under a total deadline; each answer compared with EIA-861 and each failure explained (verify-advice.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import PQueue from 'p-queue';
import { SourceError, UsageError } from '../errors.ts';
import type { SourceDef } from '../sources/source-def.ts';
import { HttpClient, type HttpOptions } from '../sources/http.ts';
import { INDEX_FILE, probeSource, saveProbe, type ProbeRun } from './probe.ts';
import { explainFailure, type Decisive } from './verify-advice.ts';
import type { EiaCheck } from './verify-eia.ts';
import { VERIFY_FORMAT, type VerifyReport, type VerifyRow } from './verify-report.ts';

export interface VerifyOptions {
  /** the registry file, as the report names it */
  registry: string;
  deadlineMs: number;
  /** rows probed at once; the per-host limits hold across them */
  concurrency: number;
  http?: Partial<HttpOptions>;
  /** DIR: every row's answers saved as DIR/<id>/ (a probe fixture) */
  saveDir?: string | null;
  eia: EiaCheck;
  onRow?: (row: VerifyRow, done: number, total: number) => void;
}

/** --save DIR must be new, or hold only saved probes (a later verify replaces them): nothing of the user's is lost. */
export function checkSaveDir(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new UsageError(`--save ${dir}: not a directory`);
  const foreign = readdirSync(dir).filter((e) => !existsSync(path.join(dir, e, INDEX_FILE)));
  if (foreign.length)
    throw new UsageError(
      `--save ${dir}: holds entries that are not saved probes (${foreign.slice(0, 3).join(', ')}); give a new or empty directory`,
    );
}

/** How much of a failed answer's body the diagnosis reads (a captcha page, an HTML error). */
const DIAGNOSIS_BYTES = 8192;

/** The request that decided a failure: the one that recorded it, else the last whose URL the message names. */
function decisive(run: ProbeRun): Decisive {
  const reqs = run.index.requests;
  const e = run.error;
  const r = e
    ? (reqs.find((q) => q.error === `${e.reason}: ${e.message}`) ??
      [...reqs].reverse().find((q) => e.message.includes(q.url)) ??
      reqs.at(-1))
    : reqs[0];
  const body = r?.file ? run.bodies.get(r.file)?.subarray(0, DIAGNOSIS_BYTES).toString('utf8') : undefined;
  return { url: r?.url ?? null, status: e?.status ?? r?.status ?? null, contentType: r?.headers['content-type'], body };
}

/** The row's registry fields, nothing probed yet. */
const blank = (source: SourceDef, eia: EiaCheck): VerifyRow => ({
  id: source.id,
  utility: source.utility,
  connector: source.connector,
  states: source.states,
  url: source.url,
  answered: false,
  status: null,
  parsed: false,
  requests: 0,
  customers_out: null,
  customers_served: null,
  counties: null,
  counties_outside_territory: null,
  outside_territory: [],
  eia_customers: eia.customers(source),
  served_vs_eia: null,
  ms: 0,
  failure: null,
});

/** `cut`: the total deadline had passed when the probe ended, so a timeout is the verification's, not the host's. */
function rowOf(source: SourceDef, run: ProbeRun, ms: number, eia: EiaCheck, cut: boolean): VerifyRow {
  const row = blank(source, eia);
  const d = decisive(run);
  const s = run.snapshot;
  const fips = s?.counties.map((c) => c.fips) ?? [];
  const outside = s ? eia.outside(source, fips) : null;
  const served = s?.customers_served ?? null;
  return {
    ...row,
    answered: d.status !== null,
    status: d.status,
    parsed: s !== null,
    requests: run.index.requests.length,
    customers_out: s?.customers_out ?? null,
    customers_served: served,
    counties: s ? fips.length : null,
    counties_outside_territory: outside?.length ?? null,
    outside_territory: outside?.slice(0, 10) ?? [],
    served_vs_eia: served !== null && row.eia_customers ? Math.round((served / row.eia_customers) * 100) / 100 : null,
    ms,
    failure: run.error ? explainFailure(source, run.error, d, cut && run.error.reason === 'timeout') : null,
  };
}

/** A row the total deadline left unprobed. */
function notProbed(source: SourceDef, eia: EiaCheck): VerifyRow {
  const e = new SourceError('timeout', 'not probed: the total deadline passed before its turn');
  return { ...blank(source, eia), failure: explainFailure(source, e, { url: null, status: null }, true) };
}

/** Probes every row once (at most `concurrency` at a time, within the total deadline) and reports on each. */
export async function runVerify(sources: SourceDef[], opts: VerifyOptions): Promise<VerifyReport> {
  const started = Date.now();
  const client = new HttpClient(opts.http);
  const total = new AbortController();
  const timer = setTimeout(() => total.abort(), opts.deadlineMs);
  const queue = new PQueue({ concurrency: opts.concurrency });
  const rows: VerifyRow[] = [];
  const one = async (source: SourceDef): Promise<void> => {
    const t0 = Date.now();
    if (total.signal.aborted) rows.push(notProbed(source, opts.eia));
    else {
      // Without --save only the head of a failed answer is read (decisive): the rest of each body is let go at once.
      const keepBytes = opts.saveDir ? undefined : DIAGNOSIS_BYTES;
      const run = await probeSource(source, {}, { client, signal: total.signal, keepBytes });
      client.retain(source.id, new Set()); // its bodies are in `run` now: the shared cache need not keep them
      if (opts.saveDir) saveProbe(path.join(opts.saveDir, source.id), run);
      rows.push(rowOf(source, run, Date.now() - t0, opts.eia, total.signal.aborted));
    }
    opts.onRow?.(rows.at(-1)!, rows.length, sources.length);
  };
  try {
    await Promise.all(sources.map((s) => queue.add(() => one(s))));
  } finally {
    clearTimeout(timer);
    await client.close();
  }
  const order = new Map(sources.map((s, i) => [s.id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return reportOf(rows, opts, started, client.options.userAgent);
}

function reportOf(rows: VerifyRow[], opts: VerifyOptions, started: number, userAgent: string): VerifyReport {
  const ok = rows.filter((r) => !r.failure).length;
  const notProbedRows = rows.filter((r) => r.failure?.kind === 'deadline' && r.requests === 0).length;
  return {
    format: VERIFY_FORMAT,
    started_at: new Date(started).toISOString(),
    finished_at: new Date().toISOString(),
    ms: Date.now() - started,
    registry: opts.registry,
    user_agent: userAgent,
    deadline_s: Math.round(opts.deadlineMs / 1000),
    eia: opts.eia.basis,
    summary: { rows: rows.length, ok, failed: rows.length - ok, not_probed: notProbedRows },
    rows,
  };
}
