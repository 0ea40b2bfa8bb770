// Runs the app on a real socket (`outage serve`). Without a base URL, absolute links name the socket's own origin (the
// port is known once it listens: tests listen on port 0), never the request's Host header.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';
import { UsageError } from '../errors.ts';

export async function startServer(
  opts: AppOptions & { port: number; host?: string },
): Promise<{ url: string; close(): Promise<void> }> {
  let app: ReturnType<typeof createApp> | undefined;
  let server: ServerType;
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const fetch = (req: Request, env: unknown) => app!.fetch(req, env);
    server = serve({ fetch, port: opts.port, hostname: host }, (info) => {
      app = createApp({ ...opts, baseUrl: opts.baseUrl ?? `http://${host}:${info.port}` });
      resolve();
    });
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
