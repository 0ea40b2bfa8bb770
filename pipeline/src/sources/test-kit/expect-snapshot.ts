// Connector test kit: the assertions every connector's fetch test makes: a snapshot is well formed whatever the feed,
// and a row the connector cannot poll is refused before any request reaches the upstream.
import { expect } from 'vitest';
import type { Snapshot } from '../snapshot.ts';

const isCount = (n: number | null): boolean => n === null || (Number.isInteger(n) && n >= 0);

/** The values of `list` met before (each repeat once per time it repeats). */
function repeatsOf(list: string[]): string[] {
  const seen = new Set<string>();
  const repeats: string[] = [];
  for (const v of list) {
    if (seen.has(v)) repeats.push(v);
    else seen.add(v);
  }
  return repeats;
}

/**
 * What holds of any snapshot: counties by five-digit FIPS, in FIPS order, each once; every count a whole number ≥ 0
 * (or null where the feed does not say); incident ids unique within the poll.
 */
export function expectWellFormed(snap: Snapshot): void {
  const fips = snap.counties.map((c) => c.fips);
  expect(
    fips.filter((f) => !/^\d{5}$/.test(f)),
    'counties named by five-digit FIPS',
  ).toEqual([]);
  expect(fips, 'counties in FIPS order, each once').toEqual([...new Set(fips)].sort());
  const counts = [
    snap.customers_out,
    snap.customers_served,
    ...snap.counties.flatMap((c) => [c.customers_out, c.customers_served]),
    ...snap.areas.flatMap((a) => [a.customers_out, a.customers_served]),
    ...snap.incidents.map((i) => i.customers_out),
  ];
  expect(
    counts.filter((n) => !isCount(n)),
    'counts are whole numbers ≥ 0 (or null)',
  ).toEqual([]);
  expect(repeatsOf(snap.incidents.map((i) => i.id)), 'incident ids unique within the poll').toEqual([]);
}

const labelOf = (t: unknown): string => (typeof t === 'string' ? t : String((t as { url?: unknown }).url));

/** Whatever the kit can fetch and whose requests it keeps. */
interface Fetcher<T> {
  fetch(target: T): Promise<unknown>;
  readonly hits: unknown[];
}

/**
 * Each target fails with a `config` error (its message matching `message`, when given) and no request reaches the
 * upstream: the connector refuses a row it cannot poll before it asks anything of the utility's server.
 */
export async function expectRefusedUnsent<T>(kit: Fetcher<T>, targets: T[], message?: RegExp): Promise<void> {
  const before = kit.hits.length;
  const failure = message ? { reason: 'config', message: expect.stringMatching(message) } : { reason: 'config' };
  for (const t of targets) await expect(kit.fetch(t), labelOf(t)).rejects.toMatchObject(failure);
  expect(kit.hits.slice(before), 'requests sent').toEqual([]);
}
