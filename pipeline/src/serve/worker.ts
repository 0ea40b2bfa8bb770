// The server's worker thread (serve/worker-server.ts starts it): the one app on its own event loop, so a poll cycle in
// the main thread cannot hold up the page. The account service stays in the main thread and is reached over RPC.
// The thread loads its modules when it starts; what to serve arrives with the `listen` command.
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { AccountService } from '../accounts/service.ts';
import { warmFunctions } from './app.ts';
import { functionLimitsFromEnv, type FunctionLimits } from './function-pool.ts';
import { warmLanding } from './landing.ts';
import type { RateLimitConfig } from './rate-limit.ts';
import { rpcClient, toWire, type WireError } from './rpc.ts';
import { startServer } from './server.ts';
import { geometryCacheDir } from './topology-cache.ts';

/** What to serve (structured-clone data and the transferred port). */
export interface ServerWorkerOptions {
  outDir: string;
  stateDir?: string;
  port: number;
  host?: string;
  rateLimits?: RateLimitConfig;
  /** the function layer's threads and budget (default: the OUTAGE_FUNCTION_* environment) */
  functionLimits?: FunctionLimits;
  /** `--base-url`: the origin of the function layer's absolute links */
  baseUrl?: string;
  /** the account service's RPC port; null when the server has no account database (503 accounts_unavailable) */
  accounts: MessagePort | null;
}

/** Main thread → worker: prepare the site's first answers, start listening, or close. */
export type ServerWorkerCommand =
  | { type: 'warm'; stateDir?: string }
  | { type: 'listen'; options: ServerWorkerOptions }
  | { type: 'close' };
/** Worker → main thread. */
export type ServerWorkerMessage =
  | { type: 'ready'; url: string }
  | { type: 'failed'; error: WireError }
  | { type: 'closed' };

const post = (m: ServerWorkerMessage) => parentPort!.postMessage(m);
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let accounts: MessagePort | null = null;

async function listen(o: ServerWorkerOptions): Promise<void> {
  accounts = o.accounts;
  try {
    server = await startServer({
      outDir: o.outDir,
      stateDir: o.stateDir,
      port: o.port,
      host: o.host,
      rateLimits: o.rateLimits,
      functionLimits: o.functionLimits,
      baseUrl: o.baseUrl,
      accounts: accounts ? rpcClient<AccountService>(accounts) : undefined,
    });
    post({ type: 'ready', url: server.url });
  } catch (err) {
    post({ type: 'failed', error: toWire(err) });
  }
}

/**
 * The page's modules and geometry first (the first map needs them), then the function layer's modules when they run
 * in this thread (OUTAGE_FUNCTION_THREADS=0; otherwise each function thread loads its own).
 */
async function warm(stateDir: string | undefined): Promise<void> {
  await warmLanding(geometryCacheDir(stateDir));
  if (functionLimitsFromEnv(process.env).threads === 0) await warmFunctions();
}

async function close(): Promise<void> {
  await server?.close();
  accounts?.close();
  post({ type: 'closed' });
  parentPort!.close(); // nothing keeps the thread alive after this
}

// Commands run one after another, in the order sent.
let queue = Promise.resolve();
parentPort!.on('message', (m: ServerWorkerCommand) => {
  const run = m.type === 'warm' ? () => warm(m.stateDir) : m.type === 'listen' ? () => listen(m.options) : close;
  queue = queue.then(run).catch((err: Error) => console.error(`outage: server thread: ${err.stack ?? err}`));
});
