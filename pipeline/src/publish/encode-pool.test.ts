// The compression threads: what they return decodes to the body, jobs spread over the threads, and idle threads end.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EncodePool } from './encode-pool.ts';

describe('EncodePool', () => {
  it('compresses on its threads: each answer decodes to its body, and idle threads end', async () => {
    const pool = new EncodePool(2, 50);
    const bodies = Array.from({ length: 12 }, (_, i) => Buffer.from(`{"n":${i},"text":"${'é'.repeat(2000 + i)}"}`));
    const coded = await Promise.all(
      bodies.flatMap((b) => [
        pool.encode(b, { coding: 'gzip', level: 3 }),
        pool.encode(b, { coding: 'br', quality: 4, sizeHint: b.length, text: true }),
      ]),
    );
    expect(pool.running).toBe(2);
    bodies.forEach((b, i) => {
      expect(zlib.gunzipSync(coded[2 * i])).toEqual(b);
      expect(zlib.brotliDecompressSync(coded[2 * i + 1])).toEqual(b);
      expect(coded[2 * i].length).toBeLessThan(b.length / 4);
    });
    await expect.poll(() => pool.running).toBe(0);
    // a job after the threads ended starts one again
    expect(zlib.gunzipSync(await pool.encode(bodies[0], { coding: 'gzip', level: 6 }))).toEqual(bodies[0]);
  });
});
