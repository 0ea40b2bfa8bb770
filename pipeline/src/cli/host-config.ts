// `outage host-config`: writes the static host's routing (Vercel Build Output API v3 config.json) from the catalogue.
import type { Command } from 'commander';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log } from './common.ts';
import { vercelConfig } from '../publish/host-config.ts';

export function register(program: Command): void {
  program.command('host-config').description('write the static host routing config generated from the catalogue')
    .option('--file <path>', 'where to write it', '.vercel/output/config.json')
    .option('--simulated', 'label the data notice as simulated')
    .action((raw: { file: string; simulated?: boolean }) => {
      const file = path.resolve(raw.file);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(`${file}.tmp`, `${JSON.stringify(vercelConfig(Boolean(raw.simulated)), null, 2)}\n`);
      renameSync(`${file}.tmp`, file);
      log(`wrote ${file}`);
    });
}
