import { describe, expect, it } from 'vitest';
import {
  band,
  denominator,
  hardenedInterval,
  isStale,
  level,
  magnitude,
  pctOut,
  shouldHarden,
  staleAfterMinutes,
} from './rules.ts';

describe('denominator and pct_out', () => {
  it('takes the larger of feed and model', () => {
    expect(denominator(1000, 1200)).toBe(1200);
    expect(denominator(1500, 1200)).toBe(1500);
    expect(denominator(null, 1200)).toBe(1200);
    expect(denominator(0, null)).toBeNull();
  });
  it('is null when the denominator is smaller than the outage, never clamped', () => {
    expect(pctOut(1001, 1000)).toBeNull();
    expect(pctOut(1000, 1000)).toBe(100);
    expect(pctOut(1, 3)).toBe(33.33);
    expect(pctOut(5, null)).toBeNull();
  });
});

describe('band', () => {
  it.each([
    [null, -1],
    [0, 0],
    [0.99, 0],
    [1, 1],
    [2.99, 1],
    [3, 2],
    [9.99, 2],
    [10, 3],
    [24.99, 3],
    [25, 4],
    [49.99, 4],
    [50, 5],
    [100, 5],
  ])('pct %s → band %s', (pct, b) => expect(band(pct)).toBe(b));
});

describe('magnitude', () => {
  it.each([
    [0, 0],
    [99, 0],
    [100, 1],
    [999, 1],
    [1000, 2],
    [9999, 2],
    [10000, 3],
    [49999, 3],
    [50000, 4],
    [249999, 4],
    [250000, 5],
  ])('%s out → %s', (n, m) => expect(magnitude(n)).toBe(m));
});

describe('level', () => {
  it('blends magnitude, percent and neighbours', () => {
    expect(level(0, null, 0)).toBe(0);
    expect(level(5, 100, 5)).toBe(5);
    expect(level(2, 10, 1)).toBe(1.35);
    expect(level(2, null, 1)).toBe(1.2);
  });
});

describe('freshness', () => {
  const now = new Date('2026-01-01T12:00:00Z');
  const ago = (m: number) => new Date(now.getTime() - m * 60_000);
  it('has a 20-minute floor', () => {
    expect(staleAfterMinutes(5)).toBe(20);
    expect(staleAfterMinutes(7)).toBe(20);
    expect(staleAfterMinutes(8)).toBe(21);
    expect(staleAfterMinutes(15)).toBe(35);
  });
  it('is stale strictly after the limit', () => {
    expect(isStale(ago(20), 5, now)).toBe(false);
    expect(isStale(ago(20.01), 5, now)).toBe(true);
    expect(isStale(ago(35), 15, now)).toBe(false);
    expect(isStale(ago(36), 15, now)).toBe(true);
    expect(isStale(null, 15, now)).toBe(true);
  });
});

describe('hardened polling', () => {
  it('hardens at 1 % or when watched', () => {
    expect(shouldHarden(0.99, false)).toBe(false);
    expect(shouldHarden(1, false)).toBe(true);
    expect(shouldHarden(null, true)).toBe(true);
    expect(hardenedInterval(15)).toBe(5);
    expect(hardenedInterval(3)).toBe(2);
  });
});
