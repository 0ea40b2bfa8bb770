#!/usr/bin/env node
// The `outage` command: runs the TypeScript CLI through tsx, so a fresh clone needs no build step.
// Several file-system operations stay in flight while publishing (see publish/tree-writer.ts); libuv reads the
// pool size when it first starts, so set it before anything else runs.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { register } = await import('tsx/esm/api');
register();
await import('../pipeline/src/cli/index.ts');
