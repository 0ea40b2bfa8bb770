// `outage export`: copies the published generation into a plain directory (no symlinks, no internal `_` files),
// ready for a static host or for the Astro site's public directory; with `--precompressed`, each file's `.br` and
// `.gz` siblings too (for nginx's brotli_static and gzip_static; a CDN compresses by itself).
import type { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { addCommonOptions, log, parseCommon } from './common.ts';
import { objectPath, readManifest } from '../publish/tree-parts.ts';
import { CODINGS } from '../contract/encodings.ts';
import { siblingPath } from '../publish/precompress.ts';
import { repairMirror } from '../publish/mirror.ts';
import { UsageError } from '../errors.ts';

export function exportTree(outDir: string, to: string, opts: { precompressed?: boolean } = {}): number {
  const manifest = readManifest(outDir);
  if (!manifest)
    throw new UsageError(
      `Nothing is published in ${outDir} yet; run \`outage poll --once\` or \`outage build\` first.`,
    );
  fs.rmSync(to, { recursive: true, force: true });
  let n = 0;
  for (const [part, m] of [
    ['live', manifest],
    ['history', readManifest(outDir, 'history')],
  ] as const) {
    for (const rel of Object.keys(m?.files ?? {})) {
      if (rel.split('/').some((seg) => seg.startsWith('_'))) continue;
      const dest = path.join(to, rel);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      const object = objectPath(outDir, m!.files[rel].object, part);
      fs.copyFileSync(object, dest);
      n += 1;
      if (opts.precompressed)
        for (const c of CODINGS)
          if (m!.files[rel].encodings?.[c] !== undefined) fs.copyFileSync(siblingPath(object, c), siblingPath(dest, c));
    }
  }
  return n;
}

export function register(program: Command): void {
  addCommonOptions(
    program.command('export').description('copy the published tree into a plain directory for a static host'),
  )
    .requiredOption('--to <dir>', 'destination directory (replaced)')
    .option(
      '--precompressed',
      "also copy each text file's .br and .gz siblings (for nginx's brotli_static/gzip_static)",
    )
    .action(async (raw: Record<string, unknown>) => {
      const cfg = parseCommon(raw);
      // The plain-file mirror beside the manifest may be shipped too: a kill during its last sync is repaired first.
      const r = await repairMirror(cfg.out);
      if (r.temps + r.relinked + r.missing + r.extra > 0)
        log(
          `mirror repaired: ${r.relinked} relinked, ${r.missing} restored, ${r.extra} extra and ${r.temps} temporary files removed · ${r.ms} ms`,
        );
      const n = exportTree(cfg.out, path.resolve(String(raw.to)), { precompressed: Boolean(raw.precompressed) });
      log(`exported ${n} files to ${raw.to}`);
    });
}
