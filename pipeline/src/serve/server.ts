// Runs the app on a real socket (`outage serve`).
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';
import { UsageError } from '../errors.ts';

export async function startServer(
  opts: AppOptions & { port: number; host?: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp(opts);
  let server: ServerType;
  await new Promise<void>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host ?? '127.0.0.1' }, () => resolve());
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
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
