// Runs the app on a real socket (`outage serve`, `poll --listen`, the thread of `outage start`). Without a base URL,
// absolute links name the socket's own origin (the port is known once it listens: tests listen on port 0), never the
// request's Host header. Function answers run on the function layer's threads under their budget (function-pool.ts),
// and requests the HTTP parser refuses get the one error body (client-errors.ts).
import { serve, type ServerType } from '@hono/node-server';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';
import { answerClientErrors } from './client-errors.ts';
import { FunctionPool, functionLimitsFromEnv, type FunctionLimits } from './function-pool.ts';
import { pooledRunner } from './function-runner.ts';
import { UsageError } from '../errors.ts';

export type ServerOptions = Omit<AppOptions, 'functions'> & {
  port: number;
  host?: string;
  /** the function layer's threads and budget (default: the OUTAGE_FUNCTION_* environment, see function-pool.ts) */
  functionLimits?: FunctionLimits;
};

export async function startServer(opts: ServerOptions): Promise<{ url: string; close(): Promise<void> }> {
  let app: ReturnType<typeof createApp> | undefined;
  let pool: FunctionPool | undefined;
  let server: ServerType;
  const host = opts.host ?? '127.0.0.1';
  const limits = opts.functionLimits ?? functionLimitsFromEnv(process.env);
  await new Promise<void>((resolve, reject) => {
    const fetch = (req: Request, env: unknown) => app!.fetch(req, env);
    server = serve({ fetch, port: opts.port, hostname: host }, (info) => {
      const baseUrl = opts.baseUrl ?? `http://${host}:${info.port}`;
      pool = limits.threads > 0 ? new FunctionPool({ outDir: opts.outDir, baseUrl }, limits) : undefined;
      app = createApp({ ...opts, baseUrl, functions: pool && pooledRunner(pool) });
      resolve();
    });
    answerClientErrors(server as http.Server);
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new UsageError(`Port ${opts.port} is in use (another outage server?): stop it or choose --port.`)
          : err,
      ),
    );
  });
  const port = (server!.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool?.close();
    },
  };
}
