// The static site: the live map, county and state pages, sources, events, reports, API docs and embeds, shipping the
// exported /api/v1 tree as-is. `outage export --to site/.public` materialises the published generation (plain
// files) before `astro build`. OUTAGE_SITE_PUBLIC / OUTAGE_SITE_OUT move both directories (the site test builds
// into a temporary one).
import fs from 'node:fs';
import { defineConfig } from 'astro/config';

/**
 * Astro 5 stages the server build in `<cwd>/.astro/` when outDir lies outside the working directory, deletes every
 * .mjs chunk there, removes the then-empty directory, and fails reading it (ENOENT). One emitted non-.mjs file keeps
 * the directory; it is deleted from the output when the build is done.
 */
const KEEP = 'astro-staging.keep';
const keepStagingDir = {
  name: 'keep-staging-dir',
  hooks: {
    'astro:config:setup': ({ updateConfig }) =>
      updateConfig({
        vite: {
          plugins: [
            {
              name: 'keep-staging-dir',
              apply: 'build',
              generateBundle() {
                this.emitFile({ type: 'asset', fileName: KEEP, source: '' });
              },
            },
          ],
        },
      }),
    'astro:build:done': ({ dir }) => fs.rmSync(new URL(KEEP, dir), { force: true }),
  },
};

export default defineConfig({
  output: 'static',
  publicDir: process.env.OUTAGE_SITE_PUBLIC ?? './.public',
  outDir: process.env.OUTAGE_SITE_OUT ?? './dist',
  build: { format: 'directory' },
  integrations: [keepStagingDir],
});
