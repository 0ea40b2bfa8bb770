// `outage serve`: the local server (the CDN's behaviour plus the function layer) over the published tree. The app
// and the account database load when the command runs (the CLI loads this module for its options).
import type { Command } from 'commander';
import { addCommonOptions, clockFor, log, parseCommon } from './common.ts';

export function register(program: Command): void {
  addCommonOptions(program.command('serve').description('serve the published tree and the function layer'))
    .option('--port <n>', 'port to listen on', '8787')
    .option('--host <addr>', 'address to listen on', '127.0.0.1')
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      const [{ openAccountsDb }, { AccountService }, { mailerFromEnv }, { safetyFromEnv }, { startServer }] =
        await Promise.all([
          import('../accounts/sql.ts'),
          import('../accounts/service.ts'),
          import('../accounts/mailer.ts'),
          import('../accounts/runtime.ts'),
          import('../serve/server.ts'),
        ]);
      // The account endpoints: PostgreSQL at DATABASE_URL (shared with the polling process), else the embedded PGlite.
      // Without DATABASE_URL the embedded one is used only when no other process (a running `poll`) has it.
      const sql = await openAccountsDb(cfg.state).catch((err: Error) => {
        log(`accounts: unavailable (${err.message}); the account endpoints answer 503`);
        return null;
      });
      const accounts = sql
        ? new AccountService({
            sql,
            mailer: mailerFromEnv(log),
            baseUrl: cfg.baseUrl,
            clock: clockFor(cfg, false),
            safety: safetyFromEnv(),
          })
        : undefined;
      const server = await startServer({
        outDir: cfg.out,
        stateDir: cfg.state,
        port: Number(raw.port),
        host: String(raw.host),
        baseUrl: cfg.baseUrl,
        accounts,
      });
      log(`serving ${cfg.out} at ${server.url}/`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
      await sql?.close();
    });
}
