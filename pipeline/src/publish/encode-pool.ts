// Compression off the main thread (issue 39 part 3). zlib's asynchronous calls compress on libuv's thread pool, but
// each one still costs the calling thread its stream's set-up (~40 µs a brotli call, ~130 µs a gzip one, measured
// here): a 3× storm's 8,700 files, two siblings each, spent ~3 s of the publishing thread there. A few worker threads
// instead run the synchronous compressors, one call per message; the caller only copies the body into the message.
// The threads are unref'd (they never keep a process alive) and end after IDLE_MS without work.
import { Worker } from 'node:worker_threads';

/** What a thread is asked: the body's bytes (transferred), and the coding's parameters. */
export type EncodeJob =
  | { coding: 'gzip'; level: number }
  | { coding: 'br'; quality: number; sizeHint: number; text: boolean };

type Pending = { resolve: (b: Buffer) => void; reject: (e: Error) => void };

const THREAD = `
const { parentPort } = require('node:worker_threads');
const zlib = require('node:zlib');
parentPort.on('message', ({ id, body, job }) => {
  try {
    const input = Buffer.from(body);
    const out = job.coding === 'gzip'
      ? zlib.gzipSync(input, { level: job.level })
      : zlib.brotliCompressSync(input, { params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: job.quality,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: job.sizeHint,
          [zlib.constants.BROTLI_PARAM_MODE]: job.text ? zlib.constants.BROTLI_MODE_TEXT : zlib.constants.BROTLI_MODE_GENERIC,
        } });
    const copy = new Uint8Array(out);
    parentPort.postMessage({ id, out: copy.buffer }, [copy.buffer]);
  } catch (err) {
    parentPort.postMessage({ id, error: String(err && err.message || err) });
  }
});
`;

/** A thread ends after this long without a job (the next job starts another). */
const IDLE_MS = 10_000;

class EncodeThread {
  private readonly worker = new Worker(THREAD, { eval: true });
  private readonly pending = new Map<number, Pending>();
  private idle: NodeJS.Timeout | null = null;
  private seq = 0;
  gone = false;

  constructor(
    private readonly onGone: (t: EncodeThread) => void,
    private readonly idleMs: number,
  ) {
    this.worker.unref();
    this.worker.on('message', (m: { id: number; out?: ArrayBuffer; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.out) p?.resolve(Buffer.from(m.out));
      else p?.reject(new Error(`compressing a published file failed: ${m.error}`));
      this.armIdle();
    });
    const fail = (err: Error) => {
      this.gone = true;
      this.onGone(this);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the compression thread exited (code ${code})`)));
  }

  get load(): number {
    return this.pending.size;
  }

  run(body: Buffer, job: EncodeJob): Promise<Buffer> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const id = ++this.seq;
    const copy = new Uint8Array(body); // the caller keeps its buffer; the copy is moved, not cloned again
    return new Promise<Buffer>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, body: copy.buffer, job }, [copy.buffer]);
    });
  }

  private armIdle(): void {
    if (this.pending.size > 0 || this.gone) return;
    this.idle = setTimeout(() => {
      this.gone = true;
      this.onGone(this);
      void this.worker.terminate();
    }, this.idleMs);
    this.idle.unref();
  }
}

/** The process's compression threads: up to `size`, each job to the least loaded. */
export class EncodePool {
  private readonly threads: EncodeThread[] = [];

  constructor(
    private readonly size: number,
    private readonly idleMs = IDLE_MS,
  ) {}

  encode(body: Buffer, job: EncodeJob): Promise<Buffer> {
    let t = this.threads.reduce<EncodeThread | null>((a, b) => (a && a.load <= b.load ? a : b), null);
    if (!t || (t.load > 0 && this.threads.length < this.size)) {
      t = new EncodeThread((gone) => this.threads.splice(this.threads.indexOf(gone) >>> 0, 1), this.idleMs);
      this.threads.push(t);
    }
    return t.run(body, job);
  }

  /** Threads running now (tests: they end when idle). */
  get running(): number {
    return this.threads.length;
  }
}
