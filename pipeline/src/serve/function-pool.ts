// The function layer off the server's event loop, under a per-request budget (issue 37: one query's endless loop held
// `outage serve` at 95 % CPU, /healthz included). Function answers run on a few threads (function-thread.ts), one
// request at a time each. A request waits for a thread at most its budget, and runs on one at most its budget; past
// either it answers 503 `busy` with Retry-After, and a thread that overran is stopped (which ends any loop) and
// replaced. The server's own thread keeps answering /healthz, pages and prebuilt files whatever the threads do.
import { Worker } from 'node:worker_threads';
import type { Format } from '../contract/catalogue.ts';
import { busy } from '../contract/errors.ts';
import { fromWire, type WireError } from './rpc.ts';
import { bootScript } from './thread-boot.ts';

/** One function request as data: the route it resolved to and what of the request the answer reads. */
export type FunctionTask = { url: string; method: string; headers: Array<[string, string]> } & (
  | { kind: 'answer'; id: string }
  | { kind: 'missing'; format: Format }
);
export interface ThreadData {
  outDir: string;
  /** `--base-url`: the origin of the function layer's absolute links */
  baseUrl: string;
}
export type WireAnswer = { status: number; headers: Array<[string, string]>; body: ArrayBuffer | null };
export type ThreadMessage =
  | { type: 'ready' }
  | ({ type: 'answer'; seq: number } & WireAnswer)
  | { type: 'error'; seq: number; error: WireError };

export interface FunctionLimits {
  /** threads answering function requests; 0 answers them on the server's own thread, without a budget */
  threads: number;
  /** how long a request may wait for a thread, and then run on it, before it answers 503 `busy` */
  budgetMs: number;
  /** requests that may wait for a thread at once; more answer 503 `busy` at once */
  maxWaiting: number;
}

/** The documented defaults (docs/guardrails.md: Request budgets), overridable by OUTAGE_FUNCTION_THREADS and _BUDGET_MS. */
export const FUNCTION_DEFAULTS: FunctionLimits = { threads: 2, budgetMs: 10_000, maxWaiting: 64 };

function whole(env: Record<string, string | undefined>, name: string, min: number, max: number, fallback: number) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(
      `Expected \`${name}\` to be a whole number from ${min} to ${max}, got \`${raw}\`; fix or unset it.`,
    );
  return n;
}

export const functionLimitsFromEnv = (env: Record<string, string | undefined>): FunctionLimits => ({
  threads: whole(env, 'OUTAGE_FUNCTION_THREADS', 0, 16, FUNCTION_DEFAULTS.threads),
  budgetMs: whole(env, 'OUTAGE_FUNCTION_BUDGET_MS', 1, 600_000, FUNCTION_DEFAULTS.budgetMs),
  maxWaiting: FUNCTION_DEFAULTS.maxWaiting,
});

type Pending = { seq: number; resolve(a: WireAnswer): void; reject(e: Error): void; timer: NodeJS.Timeout };

/** One thread: ready once its modules loaded; runs one task at a time; stopped when a task overruns. */
class FunctionThread {
  private readonly worker: Worker;
  private pending: Pending | null = null;
  private seq = 0;
  alive = true;
  booted = false;

  constructor(
    data: ThreadData,
    onReady: (t: FunctionThread) => void,
    private readonly onGone: (t: FunctionThread, e: Error) => void,
  ) {
    this.worker = new Worker(bootScript('function-thread'), { eval: true, workerData: data });
    this.worker.unref(); // the server's socket keeps the process alive, not its threads
    this.worker.on('message', (m: ThreadMessage) => {
      if (m.type === 'ready') {
        this.booted = true;
        onReady(this);
      } else if (this.pending?.seq === m.seq) {
        const p = this.settle();
        if (m.type === 'answer') p.resolve({ status: m.status, headers: m.headers, body: m.body });
        else p.reject(fromWire(m.error));
      }
    });
    this.worker.on('error', (err) => this.gone(err));
    this.worker.on('exit', () => this.gone(new Error('A function thread exited.')));
  }

  private settle(): Pending {
    const p = this.pending!;
    this.pending = null;
    clearTimeout(p.timer);
    return p;
  }

  /** The thread is out of the pool (stopped, crashed or exited): its request fails with `err`. */
  private gone(err: Error): void {
    if (!this.alive) return;
    this.alive = false;
    if (this.pending) this.settle().reject(err);
    this.onGone(this, err);
  }

  run(task: FunctionTask, budgetMs: number): Promise<WireAnswer> {
    return new Promise((resolve, reject) => {
      const seq = ++this.seq;
      const timer = setTimeout(() => {
        this.settle().reject(overran(budgetMs));
        void this.stop();
      }, budgetMs);
      this.pending = { seq, resolve, reject, timer };
      this.worker.postMessage({ seq, task });
    });
  }

  /** Stops the thread at once, whatever it is running (terminate ends a busy loop too); its request fails with `why`. */
  async stop(why: Error = new Error('The function thread was stopped.')): Promise<void> {
    this.gone(why);
    await this.worker.terminate();
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
const overran = (budgetMs: number) =>
  busy(
    `This query ran past the function layer's budget of ${seconds(budgetMs)} s and was stopped. Narrow it (a shorter range, a filter) or use the prebuilt files.`,
    seconds(budgetMs),
  );

type Waiter = {
  task: FunctionTask;
  resolve(a: WireAnswer): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout | null;
};

/** The threads and the requests waiting for one. Threads start with the first request. */
export class FunctionPool {
  private readonly threads = new Set<FunctionThread>();
  private readonly idle: FunctionThread[] = [];
  private readonly waiting: Waiter[] = [];
  private broken: Error | null = null;
  private closed = false;

  constructor(
    private readonly data: ThreadData,
    readonly limits: FunctionLimits,
  ) {}

  run(task: FunctionTask): Promise<WireAnswer> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.closed) return Promise.reject(busy('The server is closing.', 1));
    const { budgetMs, maxWaiting } = this.limits;
    if (this.waiting.length >= maxWaiting)
      return Promise.reject(busy(`The function layer is busy: ${maxWaiting} queries are waiting.`, seconds(budgetMs)));
    this.fill();
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { task, resolve, reject, timer: null };
      this.waiting.push(waiter);
      if ([...this.threads].some((t) => t.booted)) this.startWaiting(waiter);
      this.dispatch();
    });
  }

  /**
   * A request's wait counts from when a thread is there to take it: a thread's start (loading the modules, seconds on
   * a busy machine; the pool's first, or one replacing a thread that overran) is no request's fault.
   */
  private startWaiting(w: Waiter): void {
    w.timer ??= setTimeout(() => this.expire(w), this.limits.budgetMs);
  }

  private expire(w: Waiter): void {
    const at = this.waiting.indexOf(w);
    if (at < 0) return;
    this.waiting.splice(at, 1);
    const s = seconds(this.limits.budgetMs);
    w.reject(busy(`The function layer is busy: this query waited ${s} s for a thread.`, s));
  }

  private fill(): void {
    while (!this.closed && !this.broken && this.threads.size < this.limits.threads)
      this.threads.add(
        new FunctionThread(
          this.data,
          (t) => this.release(t),
          (t, e) => this.lost(t, e),
        ),
      );
  }

  private release(t: FunctionThread): void {
    if (!t.alive) return;
    for (const w of this.waiting) this.startWaiting(w);
    this.idle.push(t);
    this.dispatch();
  }

  private dispatch(): void {
    while (this.idle.length && this.waiting.length) {
      const thread = this.idle.pop()!;
      const w = this.waiting.shift()!;
      if (w.timer) clearTimeout(w.timer);
      const done = thread.run(w.task, this.limits.budgetMs);
      done.then(w.resolve, w.reject).finally(() => this.release(thread));
    }
  }

  /** A thread stopped (overran, crashed): replaced; one that never started breaks the pool (no restart loop). */
  private lost(t: FunctionThread, err: Error): void {
    this.threads.delete(t);
    const at = this.idle.indexOf(t);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.closed) return;
    if (!t.booted) {
      this.broken = new Error(`The function layer's threads cannot start: ${err.stack ?? err}`);
      console.error(`outage: ${this.broken.message}`);
      this.rejectWaiting(this.broken);
      return;
    }
    this.fill();
  }

  private rejectWaiting(err: Error): void {
    for (const w of this.waiting.splice(0)) {
      if (w.timer) clearTimeout(w.timer);
      w.reject(err);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const closing = busy('The server is closing.', 1);
    this.rejectWaiting(closing);
    // a request in flight answers 503 `busy` too, not an error with its stack in the log
    await Promise.all([...this.threads].map((t) => t.stop(closing)));
    this.threads.clear();
  }
}
