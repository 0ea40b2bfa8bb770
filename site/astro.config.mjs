// The static site: a landing page and the docs index, shipping the exported /api/v1 tree as-is.
// `outage export --to site/.public` materialises the published generation (plain files) before `astro build`.
// OUTAGE_SITE_PUBLIC / OUTAGE_SITE_OUT move both directories (the site test builds into a temporary one).
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  publicDir: process.env.OUTAGE_SITE_PUBLIC ?? './.public',
  outDir: process.env.OUTAGE_SITE_OUT ?? './dist',
  build: { format: 'directory' },
});
