// The local server on a worker thread (used by `outage start`): the same app and socket as `startServer`, but its
// requests are answered while the main thread runs a poll cycle (long synchronous stretches of polling and
// publishing). Only the account service stays in the main thread, served to the worker over RPC (rpc.ts).
import { MessageChannel, Worker } from 'node:worker_threads';
import type { AccountService } from '../accounts/service.ts';
import type { AppOptions } from './app.ts';
import type { FunctionLimits } from './function-pool.ts';
import { fromWire, serveRpc } from './rpc.ts';
import { bootScript } from './thread-boot.ts';
import type { ServerWorkerCommand, ServerWorkerMessage, ServerWorkerOptions } from './worker.ts';

export type WorkerServerOptions = Omit<AppOptions, 'clock' | 'accounts' | 'functions'> & {
  port: number;
  host?: string;
  accounts?: AccountService | Promise<AccountService>;
  functionLimits?: FunctionLimits;
};
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** How long a closing server may take to finish its requests before the thread is stopped anyway. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The server's thread. It starts loading the app when made (bin/outage.js makes it for `start` while the CLI's own
 * modules load, see prepareServerWorker); `listen` says what to serve and opens the socket.
 */
export class ServerWorker {
  private readonly worker: Worker;
  private rpc: MessageChannel | null = null;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor() {
    this.worker = new Worker(bootScript('worker'), { eval: true });
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    // A thread that fails (a module that does not load, a crash while serving) is reported; the poll loop goes on.
    this.worker.on('error', (err) => {
      this.failure = err;
      console.error(`outage: the server's thread failed: ${err.stack ?? err}`);
    });
  }

  /** Loads the page's modules and the map geometry (kept under `stateDir`) before the first request. */
  warm(stateDir?: string): void {
    this.worker.postMessage({ type: 'warm', stateDir } satisfies ServerWorkerCommand);
  }

  /** Listens on the port; rejects (and stops the thread) when it cannot, e.g. a UsageError for a port in use. */
  async listen(opts: WorkerServerOptions): Promise<RunningServer> {
    const rpc = opts.accounts ? new MessageChannel() : null;
    if (rpc && opts.accounts) serveRpc(rpc.port1, opts.accounts);
    this.rpc = rpc;
    const options: ServerWorkerOptions = {
      outDir: opts.outDir,
      stateDir: opts.stateDir,
      port: opts.port,
      host: opts.host,
      rateLimits: opts.rateLimits,
      functionLimits: opts.functionLimits,
      baseUrl: opts.baseUrl,
      accounts: rpc?.port2 ?? null,
    };
    const url = await new Promise<string>((resolve, reject) => {
      this.worker.on('message', (m: ServerWorkerMessage) => {
        if (m.type === 'ready') resolve(m.url);
        else if (m.type === 'failed') reject(fromWire(m.error));
      });
      this.exited.then(() => reject(this.failure ?? new Error("The server's thread exited before listening.")));
      this.worker.postMessage({ type: 'listen', options } satisfies ServerWorkerCommand, rpc ? [rpc.port2] : []);
    }).catch(async (err: Error) => {
      await this.stop();
      throw err;
    });
    this.worker.removeAllListeners('message');
    return { url, close: () => this.close() };
  }

  /** Closes the server (its open requests get CLOSE_GRACE_MS to finish), then stops the thread. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => {
      this.worker.on('message', (m: ServerWorkerMessage) => m.type === 'closed' && resolve());
      this.exited.then(resolve);
    });
    this.worker.postMessage({ type: 'close' } satisfies ServerWorkerCommand);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closed, new Promise((r) => (timer = setTimeout(r, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    await this.stop();
  }

  /** Stops the thread at once (and the account RPC with it). */
  async stop(): Promise<void> {
    this.rpc?.port1.close();
    await this.worker.terminate();
  }
}

let prepared: ServerWorker | null = null;

/**
 * Starts the server's thread now, so it loads the app while the CLI loads its own modules (bin/outage.js, for
 * `start`); `serverWorker()` hands it over.
 */
export function prepareServerWorker(): void {
  prepared ??= new ServerWorker();
}

/** The thread prepareServerWorker started, else a new one. */
export function serverWorker(): ServerWorker {
  const w = prepared ?? new ServerWorker();
  prepared = null;
  return w;
}

/** `startServer` on its own thread: the thread is made, warmed after it listens, and closed with the server. */
export async function startServerInWorker(opts: WorkerServerOptions): Promise<RunningServer> {
  const w = new ServerWorker();
  const server = await w.listen(opts);
  w.warm(opts.stateDir);
  return server;
}
