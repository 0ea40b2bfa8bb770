// The last step of `npm run bench`: every figure the bench steps wrote (bench-results/*.json), with its target and
// whether it is met, as one table; also written to bench-results/summary.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const STEPS = ['live', 'start', 'load', 'site', 'history', 'deliveries-pglite', 'deliveries-postgres', 'hostile'];
type Row = { metric: string; value: string | number; target: string };

/** The numbers in a value like `12.3`, `1.14×`, `52 / 60 / 48` or `79,166 / 0`. */
const numbers = (v: string | number): number[] =>
  [...String(v).matchAll(/-?\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));

/**
 * 'met', 'not met', or '' when the target is not a bound. A bound reads `≤ 40`, `≥ 50000`, `p99 ≤ 50`,
 * `median ≤ 50` or a bare number (equality); `p99` bounds judge the value's last number, the others its first.
 */
export function verdict(r: Row): string {
  const m = /^(?:(p99|median)\s+)?(≤|≥)?\s*(-?\d[\d,]*(?:\.\d+)?)\s*(?:×|ms|s|MB)?$/.exec(r.target.trim());
  const values = numbers(r.value);
  if (!m || values.length === 0) return '';
  const bound = Number(m[3].replace(/,/g, ''));
  const v = m[1] === 'p99' ? values.at(-1)! : values[0];
  const ok = m[2] === '≤' ? v <= bound : m[2] === '≥' ? v >= bound : v === bound;
  return ok ? 'met' : 'not met';
}

export function summarize(): Array<Row & { step: string; verdict: string }> {
  const out: Array<Row & { step: string; verdict: string }> = [];
  for (const step of STEPS) {
    const file = path.join(ROOT, 'bench-results', `${step}.json`);
    if (!fs.existsSync(file)) continue;
    for (const r of (JSON.parse(fs.readFileSync(file, 'utf8')) as { rows: Row[] }).rows)
      out.push({ step, ...r, verdict: verdict(r) });
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = summarize();
  console.table(rows.map(({ step, metric, value, target, verdict }) => ({ step, metric, value, target, verdict })));
  const judged = rows.filter((r) => r.verdict);
  console.log(
    `${judged.filter((r) => r.verdict === 'met').length} of ${judged.length} targets met; written to bench-results/summary.json`,
  );
  fs.writeFileSync(
    path.join(ROOT, 'bench-results', 'summary.json'),
    JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, rows }, null, 2),
  );
}
