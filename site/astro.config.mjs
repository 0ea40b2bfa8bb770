// The static site: a landing page and the docs index, shipping the exported /api/v1 tree as-is.
// `outage export --to site/.public` materialises the published generation (plain files) before `astro build`.
import { defineConfig } from 'astro/config';

export default defineConfig({
  output: 'static',
  publicDir: './.public',
  outDir: './dist',
  build: { format: 'directory' },
  telemetry: false,
});
