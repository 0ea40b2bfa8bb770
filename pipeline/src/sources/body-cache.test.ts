// The per-source cache of bodies and validators: scoped, trimmed to a poll's URLs, aged out.
import { describe, expect, it } from 'vitest';
import { BodyCache, PACK_MIN_CHARS } from './body-cache.ts';

const entry = (body: string, usedAt = 0) => ({ etag: `"${body}"`, lastModified: null, body, usedAt });

describe('BodyCache', () => {
  it("keeps each source's bodies apart", () => {
    const c = new BodyCache();
    c.set('a', 'http://h/x', entry('a-x'));
    c.set('b', 'http://h/x', entry('b-x'));
    expect(c.get('a', 'http://h/x')?.body).toBe('a-x');
    expect(c.get('b', 'http://h/x')?.body).toBe('b-x');
    c.delete('a', 'http://h/x');
    expect(c.get('a', 'http://h/x')).toBeUndefined();
    expect(c.get('b', 'http://h/x')?.body).toBe('b-x');
  });

  it('gives back the same text before and after the body is deflated, whatever its characters', async () => {
    const c = new BodyCache();
    const body = `{"town":"Añasco \u00e9\u4e2d\ud83d\udca1","out":${'7'.repeat(50_000)}}`;
    c.set('a', 'http://h/x', entry(body));
    const kept = c.get('a', 'http://h/x')!;
    expect(kept.body).toBe(body);
    await kept.packing;
    expect(kept.body).toBe(body);
    expect(kept.chars).toBe(body.length);
    expect(c.bytes('a')).toBe(body.length);
  });

  it('keeps a short body as its text, and a long one deflated: each reads back the same', async () => {
    const c = new BodyCache();
    const short = 'x'.repeat(PACK_MIN_CHARS - 1);
    const long = 'é'.repeat(PACK_MIN_CHARS);
    c.set('a', 'http://h/s', entry(short));
    c.set('a', 'http://h/l', entry(long));
    await Promise.all(['s', 'l'].map((u) => c.get('a', `http://h/${u}`)!.packing));
    expect([c.get('a', 'http://h/s')!.body, c.get('a', 'http://h/l')!.body]).toEqual([short, long]);
    expect(c.bytes('a')).toBe(short.length + long.length);
  });

  it("retain keeps only the URLs of the source's last poll, and touches no other source", () => {
    const c = new BodyCache();
    for (const u of ['head', 'gen-1/report', 'gen-1/tile']) c.set('a', `http://h/${u}`, entry(u));
    c.set('b', 'http://h/gen-1/report', entry('b'));
    c.retain('a', new Set(['http://h/head', 'http://h/gen-2/report']));
    expect(c.get('a', 'http://h/head')?.body).toBe('head');
    expect(c.get('a', 'http://h/gen-1/report')).toBeUndefined();
    expect(c.get('a', 'http://h/gen-1/tile')).toBeUndefined();
    expect(c.get('b', 'http://h/gen-1/report')?.body).toBe('b');
  });

  it('evict forgets what was not used since the cutoff', () => {
    const c = new BodyCache();
    c.set('a', 'http://h/old', entry('old', 1_000));
    c.set('a', 'http://h/new', entry('new', 5_000));
    c.evict(2_000);
    expect(c.get('a', 'http://h/old')).toBeUndefined();
    expect(c.get('a', 'http://h/new')?.body).toBe('new');
    c.evict(Number.POSITIVE_INFINITY);
    expect(c.get('a', 'http://h/new')).toBeUndefined();
  });
});
