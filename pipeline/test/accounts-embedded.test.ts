// The embedded account database (PGlite under <state>/accounts) survives the process that held it being killed:
// a second process takes over the dead one's lock and PGlite's stale (even empty) postmaster.pid, and keeps every
// committed row.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAccountsDb } from '../src/accounts/sql.ts';
import { UsageError } from '../src/errors.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accounts-embedded-'));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A child process that opens the database, inserts one row, says so, and waits to be killed. */
function holder(): Promise<ChildProcess> {
  const script = `
    import { openAccountsDb } from ${JSON.stringify(path.resolve('pipeline/src/accounts/sql.ts'))};
    const sql = await openAccountsDb(${JSON.stringify(dir)}, '');
    await sql.query("CREATE TABLE IF NOT EXISTS kept (v TEXT)");
    await sql.query("INSERT INTO kept VALUES ('before the kill')");
    process.stdout.write('open\\n');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => String(d).includes('open') && resolve(child));
    child.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
  });
}

describe('embedded account database', () => {
  it('is refused while a live process holds it, and opens with its rows after that process is killed', async () => {
    const child = await holder();
    await expect(openAccountsDb(dir, '')).rejects.toThrow(UsageError);
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
    children.delete(child);
    const pid = path.join(dir, 'accounts', 'postmaster.pid');
    expect(fs.existsSync(pid)).toBe(true);
    // A kill during PGlite's own start leaves the file empty (seen after killing `npm start`): the worst case.
    fs.writeFileSync(pid, '');
    const sql = await openAccountsDb(dir, '');
    try {
      expect(await sql.query('SELECT v FROM kept')).toEqual([{ v: 'before the kill' }]);
    } finally {
      await sql.close();
    }
  });
});
