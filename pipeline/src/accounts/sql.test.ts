// The embedded account database: migrations apply in order, and one process at a time holds a data directory.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { migrate, openPglite } from './sql.ts';
import { testTempDir } from '../../test/clean-machine.ts';

describe('embedded account database', () => {
  it('is locked to one process; a lock left by a dead process is taken over', async () => {
    const dir = path.join(testTempDir('pgl'), 'accounts');
    const a = await openPglite(dir);
    expect(await migrate(a)).toEqual([1, 2, 3, 4, 5, 6]);
    fs.writeFileSync(`${dir}.lock`, '1'); // pid 1 is alive (init): another process holds it
    await expect(openPglite(dir)).rejects.toThrow(/in use by process 1\. Set DATABASE_URL/);
    fs.writeFileSync(`${dir}.lock`, String(process.pid));
    await a.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    fs.writeFileSync(`${dir}.lock`, '2147483646'); // no such process
    const b = await openPglite(dir);
    expect(await migrate(b)).toEqual([]); // the data survived the reopen
    await b.close();
  }, 60_000);
});
