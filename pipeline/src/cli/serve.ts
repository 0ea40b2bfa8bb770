// `outage serve`: the local server (the CDN's behaviour plus the function layer) over the published tree.
import type { Command } from 'commander';
import { addCommonOptions, log, parseCommon } from './common.ts';
import { startServer } from '../serve/server.ts';

export function register(program: Command): void {
  addCommonOptions(program.command('serve').description('serve the published tree and the function layer'))
    .option('--port <n>', 'port to listen on', '8787')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const server = await startServer({ outDir: cfg.out, port: Number(raw.port), host: String(raw.host) });
      log(`serving ${cfg.out} at ${server.url}/`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    });
}
