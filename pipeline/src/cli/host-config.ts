// `outage host-config`: writes the static host's routing from the catalogue — the Vercel Build Output API v3
// config.json (default), or an nginx site that serves the tree from disk and proxies the function layer.
import type { Command } from 'commander';
import path from 'node:path';
import { log } from './common.ts';
import { hostOutput } from '../publish/host-config.ts';
import { nginxConfig } from '../publish/nginx-config.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { UsageError } from '../errors.ts';

interface Raw {
  target: string;
  file?: string;
  simulated?: boolean;
  root: string;
  upstream: string;
  listen: string;
  brotliStatic?: boolean;
}

const DEFAULT_FILE: Record<string, string> = { vercel: '.vercel/output/config.json', nginx: 'outage-nginx.conf' };

/** Every file to write, by absolute path. */
function outputFor(raw: Raw): Record<string, string> {
  const file = path.resolve(raw.file ?? DEFAULT_FILE[raw.target]);
  if (raw.target === 'nginx') {
    if (!/^[\w.-]+:\d+$|^\[[\d:a-f]+\]:\d+$|^unix:\//i.test(raw.upstream))
      throw new UsageError(
        `--upstream: expected host:port of \`outage serve\` (e.g. 127.0.0.1:8787), got \`${raw.upstream}\`.`,
      );
    return {
      [file]: nginxConfig({
        root: path.resolve(raw.root),
        upstream: raw.upstream,
        listen: raw.listen,
        simulated: Boolean(raw.simulated),
        brotliStatic: Boolean(raw.brotliStatic),
      }),
    };
  }
  // config.json and, beside it, the edge middleware that stamps X-Request-Id on every v1 response.
  const { 'config.json': config, ...rest } = hostOutput(Boolean(raw.simulated));
  const files: Record<string, string> = { [file]: config };
  for (const [rel, text] of Object.entries(rest)) files[path.join(path.dirname(file), rel)] = text;
  return files;
}

export function register(program: Command): void {
  program
    .command('host-config')
    .description('write the static host routing config generated from the catalogue')
    .option('--target <name>', 'vercel (Build Output API v3) or nginx (a site for the http context)', 'vercel')
    .option('--file <path>', 'where to write it (vercel: .vercel/output/config.json, nginx: outage-nginx.conf)')
    .option('--simulated', 'label the data notice as simulated')
    .option('--root <dir>', 'nginx: the tree to serve (the --out directory or an `outage export`)', 'public')
    .option('--upstream <host:port>', 'nginx: where `outage serve` listens', '127.0.0.1:8787')
    .option('--listen <addr>', 'nginx: the listen address, e.g. 80 or 127.0.0.1:8080', '80')
    .option('--brotli-static', 'nginx: also send the .br siblings (brotli_static; needs the ngx_brotli static module)')
    .action((raw: Raw) => {
      if (!(raw.target in DEFAULT_FILE))
        throw new UsageError(`--target: expected \`vercel\` or \`nginx\`, got \`${raw.target}\`.`);
      for (const [f, text] of Object.entries(outputFor(raw))) {
        writeFileAtomic(f, text);
        log(`wrote ${f}`);
      }
    });
}
