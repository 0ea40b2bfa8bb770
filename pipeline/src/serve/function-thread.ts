// A function-layer thread (function-pool.ts starts a few): the function layer over the published tree, answering one
// request at a time off the server's event loop, so a heavy query never holds /healthz, the prebuilt files or the
// other threads. Each answer goes back as its status, headers and body; an error as data (rpc.ts), to be answered by
// the app's one error handler. The pool stops a thread that runs past its budget.
import { parentPort, workerData } from 'node:worker_threads';
import { Hono } from 'hono';
import { PublishedTree } from '../publish/published-tree.ts';
import { FunctionLayer } from './functions.ts';
import { toWire } from './rpc.ts';
import type { FunctionTask, ThreadData, ThreadMessage } from './function-pool.ts';

const { outDir, baseUrl } = workerData as ThreadData;
const layer = new FunctionLayer(new PublishedTree(outDir), baseUrl);
const post = (m: ThreadMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(m, transfer);

let task: FunctionTask | null = null;
const app = new Hono();
app.all('*', (c) => {
  const t = task!;
  const url = new URL(t.url);
  return t.kind === 'answer' ? layer.answer(c, t.id, url) : layer.missingFile(c, url, t.format);
});
// Errors go back to the server's app (its error handler answers and logs them), not answered here.
app.onError((err) => {
  throw err;
});

async function answer(seq: number, t: FunctionTask): Promise<void> {
  task = t;
  try {
    // A HEAD runs as its GET: the server's app drops the body and keeps its length (conditional.ts headLength).
    const method = t.method === 'HEAD' ? 'GET' : t.method;
    const res = await app.request(t.url, { method, headers: t.headers });
    const body = res.body ? await res.arrayBuffer() : null;
    post({ type: 'answer', seq, status: res.status, headers: [...res.headers], body }, body ? [body] : []);
  } catch (err) {
    post({ type: 'error', seq, error: toWire(err) });
  } finally {
    task = null;
  }
}

parentPort!.on('message', (m: { seq: number; task: FunctionTask }) => void answer(m.seq, m.task));
post({ type: 'ready' });
