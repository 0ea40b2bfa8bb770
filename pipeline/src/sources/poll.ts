// A cycle's polls: each due source's connector runs its request chain over HTTP (the source's deadline, headers and
// budget); its answer is normalised, quarantined, capped and hashed into a poll outcome. A failure becomes a failed
// outcome whose message is clean text.
import { SourceError } from '../errors.ts';
import { snapshotHash, type PollOutcome } from '../state/store.ts';
import type { SourceStatus } from '../state/status.ts';
import { PollBudget } from './budget.ts';
import type { CarriedPolls } from './carried.ts';
import { cleaningNote } from './clean-snapshot.ts';
import { cleanText, noCleaning, type TextRule } from './clean-text.ts';
import type { Connector } from './connector.ts';
import { connectorFor } from './connectors.ts';
import type { HttpClient } from './http.ts';
import { capIncidents } from './incident-cap.ts';
import { quarantine } from './quarantine.ts';
import type { ConnectorName, SourceDef } from './source-def.ts';
import { heldSnapshot, type HeldSnapshot, type Snapshot } from './snapshot.ts';
import { sourceHeaders, type SourceHttp } from './source-http.ts';
import { normalizeReadable } from './unreadable.ts';
import { withCountyPlanned } from './planned.ts';

/** A failed poll's message as stored and published (live/sources.json `last_error`): one line of clean text. */
const MESSAGE_TEXT: TextRule = { cap: 1_000, multiline: false };

/** What polling needs that outlives a cycle. */
export interface Poller {
  http: HttpClient;
  /** what this process keeps of each source's last normalised snapshot (its status after a 304; ODIN's counts) */
  known: Map<string, HeldSnapshot>;
  /** the connector a row names (default connectorFor); the registry replay bench serves each row its fixture */
  connectors?: (name: ConnectorName) => Connector;
  /** aborts every poll in flight (the pipeline closing) */
  stop?: AbortSignal;
}

type Base = Pick<PollOutcome, 'source' | 'at' | 'snapshot' | 'hash' | 'changed'>;

/**
 * Polls the due sources at once, reporting each one done, for at most the cycle's budget: the outcomes of the polls
 * that finished (with those carried from earlier cycles); the rest stay in `carried` and land in a later cycle.
 */
export function pollDue(
  p: Poller,
  carried: CarriedPolls,
  due: SourceDef[],
  { statuses, now, budgetMs, onProgress }: DueRound,
): Promise<PollOutcome[]> {
  let done = 0;
  const poll = async (s: SourceDef) => {
    const o = await pollSource(p, s, statuses.get(s.id), now);
    onProgress?.(++done, due.length);
    return o;
  };
  return carried.round(due, poll, { now, budgetMs });
}

export interface DueRound {
  statuses: Map<string, SourceStatus>;
  now: Date;
  budgetMs: number;
  onProgress?: (done: number, total: number) => void;
}

export async function pollSource(
  p: Poller,
  source: SourceDef,
  prev: SourceStatus | undefined,
  now: Date,
): Promise<PollOutcome> {
  const t0 = Date.now();
  const timeout = AbortSignal.timeout(p.http.options.sourceDeadlineMs);
  const deadline = p.stop ? AbortSignal.any([timeout, p.stop]) : timeout;
  // Scoped to the source: its cached bodies are those its last good poll read (discard below), so a 304 means
  // "as in the snapshot held".
  // Bytes and records over the whole poll are budgeted (budget.ts): a runaway upstream fails alone, early.
  const http = p.http.forSource(deadline, sourceHeaders(source.options), source.id, PollBudget.of(source.options));
  const base: Base = { source, at: now.toISOString(), snapshot: null, hash: null, changed: false };
  const held = prev?.snapshot_hash ? p.known.get(source.id) : undefined;
  try {
    const connector = (p.connectors ?? connectorFor)(source.connector);
    const raw = await withDeadline(
      connector.fetch({ http, source, priority: 4 - source.tier, held: held !== undefined }),
      deadline,
      source,
      p.http.options.sourceDeadlineMs,
    );
    // Every request answered 304 (a fetch that stopped at its chain's head with UNCHANGED made just that one) and
    // we hold this source's snapshot: nothing to normalise or store.
    if (held && prev?.snapshot_hash && http.allNotModified) {
      const outcome = { ...base, ms: Date.now() - t0, ok: true, reason: null, message: null };
      return { ...outcome, held, hash: prev.snapshot_hash, requests: http.requests };
    }
    return normalised(p, withCountyPlanned(normalizeReadable(connector, raw, source)), { base, prev, http, t0 });
  } catch (err) {
    http.discard();
    return failed(err, base, t0, http.requests);
  }
}

/** A successful poll's outcome: the normalised snapshot, cleaned, capped, hashed and held. */
function normalised(
  p: Poller,
  normal: Snapshot,
  { base, prev, http, t0 }: { base: Base; prev: SourceStatus | undefined; http: SourceHttp; t0: number },
): PollOutcome {
  const snapshot = capIncidents(quarantine(normal, base.source));
  const hash = snapshotHash(snapshot);
  http.retainRead();
  const kept = heldSnapshot(snapshot);
  p.known.set(base.source.id, kept);
  const changed = hash !== prev?.snapshot_hash;
  return {
    ...base,
    held: kept,
    ms: Date.now() - t0,
    ok: true,
    reason: null,
    // A successful poll's message is its quality note: what the quarantine step cleaned from its text, and the
    // records whose count could not be read (the poll log keeps it).
    message: qualityNote(snapshot),
    // Only a changed snapshot is stored: an unchanged one (every source after a restart) is let go now, not held
    // with all the others until the cycle's store.
    snapshot: changed ? snapshot : null,
    hash,
    changed,
    requests: http.requests,
  };
}

/** A successful poll's quality note, or null when the answer was read whole and clean. */
function qualityNote(s: Snapshot): string | null {
  const parts = [s.text_cleaned ? cleaningNote(s.text_cleaned) : null, unreadableNote(s)].filter(Boolean);
  return parts.length ? cleanText(parts.join('; '), MESSAGE_TEXT, noCleaning()) : null;
}

/** `unreadable_records: 3, e.g. outage 12: customersOut "unknown"`, or null. */
const unreadableNote = (s: Snapshot): string | null =>
  s.unreadable.length ? `unreadable_records: ${s.unreadable.length}, e.g. ${s.unreadable[0]}` : null;

/** A failed poll's outcome: its reason, and a message that may quote the upstream's answer. */
function failed(err: unknown, base: Base, t0: number, requests: number): PollOutcome {
  const reason = err instanceof SourceError ? err.reason : 'bad_body';
  // A message may quote the upstream's answer: it is stored and published as clean text too.
  const message = cleanText(err instanceof Error ? err.message : String(err), MESSAGE_TEXT, noCleaning());
  const refusal = err instanceof SourceError && err.status ? { status: err.status, retryAfter: err.retryAfter } : null;
  return { ...base, ms: Date.now() - t0, ok: false, reason, message, requests, refusal };
}

/** A connector's request chain, cut off at the source's deadline even if the connector ignores the abort. */
function withDeadline<T>(work: Promise<T>, signal: AbortSignal, source: SourceDef, ms: number): Promise<T> {
  if (signal.aborted)
    return Promise.reject(new SourceError('timeout', `${source.id}: the ${ms} ms source deadline passed`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(
        new SourceError(
          'timeout',
          `${source.id}: its request chain did not finish within the ${ms} ms source deadline`,
        ),
      );
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
