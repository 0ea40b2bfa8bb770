// The CLI's own bad input: clear messages on stderr and exit code 2, never a stack trace.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('outage CLI', () => {
  it.each([
    [['import', 'tornado', 'x.csv'], /Unknown import kind `tornado`; use one of eaglei, mcc/],
    [['poll', '--once', '--sources', '/nonexistent/sources.csv'], /Cannot read the source registry/],
    [['poll', '--once', '--now', 'soon'], /--now: Expected an ISO-8601 instant/],
  ])('%j → exit 2 with a message', (args, msg) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-'));
    const r = run(...args, '--state', path.join(dir, 'state'), '--out', path.join(dir, 'public'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(msg);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
