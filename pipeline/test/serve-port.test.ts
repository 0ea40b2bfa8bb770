// A port already in use is a clear usage error (`outage start` and `serve` exit 2 with it), not a crash with a stack.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../src/errors.ts';
import { startServer } from '../src/serve/server.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-test-port-'));
const servers: Array<{ close(): Promise<void> }> = [];

afterAll(async () => {
  for (const s of servers) await s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('serving on a port in use', () => {
  it('rejects with a UsageError naming the port and --port', async () => {
    const first = await startServer({ outDir: dir, port: 0 });
    servers.push(first);
    const port = Number(new URL(first.url).port);
    const second = startServer({ outDir: dir, port });
    await expect(second).rejects.toThrow(UsageError);
    await expect(second).rejects.toThrow(`Port ${port} is in use`);
    await expect(second).rejects.toThrow('--port');
  });
});
