#!/usr/bin/env node
// The `outage` command: runs the TypeScript CLI through tsx, so a fresh clone needs no build step.
// Several file-system operations stay in flight while publishing (see publish/tree-writer.ts); libuv reads the
// pool size when it first starts, so set it before anything else runs.
process.env.UV_THREADPOOL_SIZE ??= '16';
const { register } = await import('tsx/esm/api');
register();
// A long-running process collects its garbage sooner than V8 would on its own (pipeline/src/heap.ts).
(await import('../pipeline/src/heap.ts')).tuneHeap();
// `start` serves its page from a thread of its own (serve/worker-server.ts): that thread starts loading the app now,
// beside the CLI's modules, rather than after them.
if (process.argv[2] === 'start') (await import('../pipeline/src/serve/worker-server.ts')).prepareServerWorker();
await import('../pipeline/src/cli/index.ts');
