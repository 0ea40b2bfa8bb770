// Calls across a MessagePort: the server's worker thread reaches objects that live in the main thread (the account
// service and its database) by method name. Errors cross as data and are re-created with their class, so the app's
// error handling (status, code, headers of an ApiError; a UsageError's exit code) is the same on both sides.
import type { MessagePort } from 'node:worker_threads';
import { ApiError, type ErrorBody } from '../contract/errors.ts';
import { UsageError } from '../errors.ts';

/** An error as structured-clone data. */
export type WireError =
  | { kind: 'api'; body: ErrorBody; headers: Record<string, string> }
  | { kind: 'usage'; message: string }
  | { kind: 'other'; name: string; message: string; stack?: string };

interface Call {
  id: number;
  method: string;
  args: unknown[];
}
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

export function toWire(err: unknown): WireError {
  if (err instanceof ApiError) return { kind: 'api', body: err.body, headers: err.headers };
  if (err instanceof UsageError) return { kind: 'usage', message: err.message };
  const e = err instanceof Error ? err : new Error(String(err));
  return { kind: 'other', name: e.name, message: e.message, stack: e.stack };
}

export function fromWire(w: WireError): Error {
  if (w.kind === 'api') return new ApiError(w.body, w.headers);
  if (w.kind === 'usage') return new UsageError(w.message);
  const e = new Error(w.message);
  e.name = w.name;
  if (w.stack) e.stack = w.stack;
  return e;
}

/**
 * Main thread: answers the calls arriving on `port` with `target`'s methods. `target` may be a promise (the account
 * database opens after the first map): calls wait for it, and fail with its error if it fails.
 */
export function serveRpc(port: MessagePort, target: object | Promise<object>): void {
  Promise.resolve(target).catch(() => {}); // a target that fails to open fails each call, not the process
  port.on('message', async ({ id, method, args }: Call) => {
    let reply: Reply;
    try {
      const t = (await target) as Record<string, unknown>;
      const fn = t[method];
      if (typeof fn !== 'function') throw new Error(`No method \`${method}\` on the object served over RPC.`);
      reply = { id, ok: true, value: await fn.apply(t, args) };
    } catch (err) {
      reply = { id, ok: false, error: toWire(err) };
    }
    try {
      port.postMessage(reply);
    } catch (err) {
      // A value that cannot be cloned (a function, a class with private state): say which method returned it.
      port.postMessage({ id, ok: false, error: toWire(new Error(`\`${method}\` returned ${(err as Error).message}`)) });
    }
  });
}

/** Worker side: an object whose every method is a call to the object `serveRpc` serves on the other end of `port`. */
export function rpcClient<T extends object>(port: MessagePort): T {
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let next = 0;
  port.on('message', (r: Reply) => {
    const p = pending.get(r.id);
    if (!p) return;
    pending.delete(r.id);
    if (r.ok) p.resolve(r.value);
    else p.reject(fromWire(r.error));
  });
  port.on('close', () => {
    for (const p of pending.values()) p.reject(new Error('The main thread closed the RPC port before answering.'));
    pending.clear();
  });
  const call =
    (method: string) =>
    (...args: unknown[]) =>
      new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        try {
          port.postMessage({ id, method, args } satisfies Call);
        } catch (err) {
          pending.delete(id); // an argument that cannot be cloned
          reject(err);
        }
      });
  // `then` stays undefined: the client is not a thenable, so `await client` gives the client itself.
  return new Proxy({} as T, { get: (_, key) => (typeof key === 'string' && key !== 'then' ? call(key) : undefined) });
}
