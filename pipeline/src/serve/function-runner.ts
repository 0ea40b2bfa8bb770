// Where the app's function answers are computed: on the function layer's threads under their budget (a server on a
// socket, startServer), or in this thread (an app made for in-process tests, or OUTAGE_FUNCTION_THREADS=0). The app
// calls both the same way; a thread's answer comes back as a Response for the app's middleware to finish (headers,
// compression, HEAD), and its errors reach the app's one error handler.
import type { Context } from 'hono';
import type { Format } from '../contract/catalogue.ts';
import type { PublishedTree } from '../publish/published-tree.ts';
import type { FunctionLayer } from './functions.ts';
import type { FunctionPool, FunctionTask, WireAnswer } from './function-pool.ts';

export interface FunctionRunner {
  /** A function route's answer. */
  answer(c: Context, id: string, url: URL): Promise<Response>;
  /** No prebuilt file at `url`: the valid empty answer, or its 404. */
  missingFile(c: Context, url: URL, format: Format): Promise<Response>;
}

/**
 * The answers that need the publisher's modules (functions.ts), loaded on first use or by `warmFunctions`: the
 * prebuilt tree and the page are served before they are loaded.
 */
export const loadFunctions = () => import('./functions.ts');

/** In this thread: the function layer loaded on first use. */
export function inlineRunner(tree: PublishedTree, baseUrl: string): FunctionRunner {
  let layer: Promise<FunctionLayer> | undefined;
  const functions = () => (layer ??= loadFunctions().then((m) => new m.FunctionLayer(tree, baseUrl)));
  return {
    answer: async (c, id, url) => (await functions()).answer(c, id, url),
    missingFile: async (c, url, format) => (await functions()).missingFile(c, url, format),
  };
}

/** On the pool's threads. */
export function pooledRunner(pool: FunctionPool): FunctionRunner {
  const task = (c: Context, url: URL) => ({ url: url.href, method: c.req.method, headers: [...c.req.raw.headers] });
  const run = async (t: FunctionTask) => responseOf(await pool.run(t));
  return {
    answer: (c, id, url) => run({ ...task(c, url), kind: 'answer', id }),
    missingFile: (c, url, format) => run({ ...task(c, url), kind: 'missing', format }),
  };
}

const NO_BODY = new Set([101, 204, 205, 304]);

function responseOf(a: WireAnswer): Response {
  const body = NO_BODY.has(a.status) ? null : a.body;
  return new Response(body, { status: a.status, headers: a.headers });
}
