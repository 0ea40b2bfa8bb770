// The cost of a storm cycle against the storm's size (issue 39 part 1): one row per size the national bench ran
// (bench-results/poller-k.json, bench-poller.ts with BENCH_STORM=k), each phase's time, files and bytes written and
// the poller's peak RSS, beside the targets.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

interface PollerResult {
  size: number;
  counts: { areas: number; incidents: number; counties_out: number };
  storm: { ms: number; phases: { poll: number; store: number; publish: number }; written: number; bytes?: number };
  unchanged: { ms: number; written: number };
  peak_rss_mb: number;
}

export function readStorm(k: number): PollerResult {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'bench-results', `poller-${k}.json`), 'utf8')) as PollerResult;
}

/** One row per storm size, smallest first. */
export function stormTable(sizes: number[]): Array<Record<string, string | number>> {
  return [...sizes]
    .sort((a, b) => a - b)
    .map((k) => {
      const r = readStorm(k);
      const { poll, store, publish } = r.storm.phases;
      return {
        storm: `${k}×`,
        'counties out': r.counts.counties_out,
        incidents: r.counts.incidents,
        areas: r.counts.areas,
        'storm cycle ms (target)': `${r.storm.ms} (${k >= 3 ? '≤ 10000' : k === 1 ? '≤ 4000' : '–'})`,
        'poll / store / publish ms': `${poll} / ${store} / ${publish}`,
        'files / MB written': `${r.storm.written} / ${((r.storm.bytes ?? 0) / 1e6).toFixed(1)}`,
        'unchanged ms / files (≤ 1000 / ≤ 1)': `${r.unchanged.ms} / ${r.unchanged.written}`,
        'peak RSS MB (≤ 512)': r.peak_rss_mb,
      };
    });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  console.table(stormTable((process.argv[2] ?? '1,2,3').split(',').map(Number)));
