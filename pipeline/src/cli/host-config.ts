// `outage host-config`: writes the static host's routing (Vercel Build Output API v3 config.json) from the catalogue.
import type { Command } from 'commander';
import path from 'node:path';
import { log } from './common.ts';
import { hostOutput } from '../publish/host-config.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';

export function register(program: Command): void {
  program
    .command('host-config')
    .description('write the static host routing config generated from the catalogue')
    .option('--file <path>', 'where to write it', '.vercel/output/config.json')
    .option('--simulated', 'label the data notice as simulated')
    .action((raw: { file: string; simulated?: boolean }) => {
      // config.json and, beside it, the edge middleware that stamps X-Request-Id on every v1 response.
      const file = path.resolve(raw.file);
      const { 'config.json': config, ...rest } = hostOutput(Boolean(raw.simulated));
      const files: Record<string, string> = { [file]: config };
      for (const [rel, text] of Object.entries(rest)) files[path.join(path.dirname(file), rel)] = text;
      for (const [f, text] of Object.entries(files)) {
        writeFileAtomic(f, text);
        log(`wrote ${f}`);
      }
    });
}
