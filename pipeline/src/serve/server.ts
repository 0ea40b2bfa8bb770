// Runs the app on a real socket (`outage serve`).
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from './app.ts';

export async function startServer(
  opts: AppOptions & { port: number; host?: string },
): Promise<{ url: string; close(): Promise<void> }> {
  const app = createApp(opts);
  let server: ServerType;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, port: opts.port, hostname: opts.host ?? '127.0.0.1' }, () => resolve());
  });
  const port = (server!.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
