#!/usr/bin/env node
// The `outage` command. It runs the build (dist/outage.js, made by `npm run build`) while that is at least as new as
// every source file, else the TypeScript sources through tsx: a fresh clone needs no build step, and an edit is never
// hidden behind an older build. OUTAGE_FROM_SOURCES=1 takes the sources whatever the build.
import { buildIsFresh } from '../scripts/build.mjs';

if (process.env.OUTAGE_FROM_SOURCES !== '1' && buildIsFresh()) await import('../dist/outage.js');
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../pipeline/src/cli/main.ts');
}
