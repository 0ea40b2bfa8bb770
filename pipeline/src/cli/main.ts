// The `outage` command's entry, the same whether it runs from the sources (bin/outage.js, through tsx) or from the
// build (dist/outage.js, `npm run build`). Nothing is imported statically: the settings below come first.

// Several file-system operations stay in flight while publishing (see publish/tree-writer.ts); libuv reads the pool
// size when it first starts, so set it before anything else runs.
process.env.UV_THREADPOOL_SIZE ??= '16';
// A long-running process collects its garbage sooner than V8 would on its own (heap.ts).
(await import('../heap.ts')).tuneHeap();
// `start` serves its page from a thread of its own (serve/worker-server.ts): that thread starts loading the app now,
// beside the CLI's modules, rather than after them.
if (process.argv[2] === 'start') (await import('../serve/worker-server.ts')).prepareServerWorker();
await import('./index.ts');
