// vitest globalSetup: the CLI the tests spawn (bin/outage.js) runs the build (dist/, scripts/build.mjs) as the
// systemd units do, instead of transforming every TypeScript file through tsx at each start (~1.6 s and a core per
// spawn). Built here when missing or older than the sources; a dist/ this run made is removed at its end. A source
// edited during the run makes the build stale, and bin/outage.js then falls back to the sources, as it always does.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain JavaScript build script, no declarations
import { build, buildIsFresh } from '../../scripts/build.mjs';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

export default async function setup(): Promise<() => void> {
  const existed = fs.existsSync(DIST);
  if (!buildIsFresh()) await build();
  return () => {
    if (!existed) fs.rmSync(DIST, { recursive: true, force: true });
  };
}
