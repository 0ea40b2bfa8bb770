import { describe, expect, it } from 'vitest';
import { parseCommon } from './common.ts';

describe('common CLI options', () => {
  it('parses into a fully defaulted config', () => {
    const c = parseCommon({});
    expect(c).toMatchObject({ now: null, speed: 1, baseUrl: 'http://127.0.0.1:8787' });
    expect(c.out.endsWith('/public')).toBe(true);
    expect(parseCommon({ now: '2026-09-28T18:00:00Z', baseUrl: 'https://example.org/' })).toMatchObject({
      now: new Date('2026-09-28T18:00:00Z'),
      baseUrl: 'https://example.org',
    });
  });
  it.each([
    [{ now: 'yesterday' }, /--now: Expected an ISO-8601 instant/],
    [{ now: '2026-13-45T99:00:00Z' }, /--now/],
    [{ speed: '0' }, /--speed/],
    [{ speed: 'fast' }, /--speed/],
    [{ baseUrl: 'ftp://x' }, /--base-url/],
  ])('rejects %o with a message naming the option', (raw, msg) => {
    expect(() => parseCommon(raw)).toThrow(msg);
  });
});
