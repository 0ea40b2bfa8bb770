// The verification report: its shape (the JSON of --json, the state file and the published document) and its terminal
// and Markdown forms. Upstream text (messages quoting answers, registry names) is escaped for each: no control
// character or escape sequence reaches a terminal, no markup reaches Markdown.
import { terminalText } from '../terminal-text.ts';
import type { ConnectorName } from '../sources/source-def.ts';
import type { Failure } from './verify-advice.ts';

export const VERIFY_FORMAT = 'outage-verify/1';

export interface VerifyRow {
  id: string;
  utility: string;
  connector: ConnectorName;
  states: string[];
  url: string;
  /** an HTTP answer came to the request that decided the outcome */
  answered: boolean;
  /** its status (the first request's when all went well); null without an answer */
  status: number | null;
  /** the connector read the answers into a snapshot that passed quarantine */
  parsed: boolean;
  requests: number;
  customers_out: number | null;
  customers_served: number | null;
  counties: number | null;
  /** counties of the answer outside the utilities' EIA-861 service territory; null when not checked */
  counties_outside_territory: number | null;
  outside_territory: string[];
  eia_customers: number | null;
  /** customers_served / eia_customers, 2 decimals */
  served_vs_eia: number | null;
  ms: number;
  failure: Failure | null;
}

export interface VerifyReport {
  format: typeof VERIFY_FORMAT;
  started_at: string;
  finished_at: string;
  ms: number;
  registry: string;
  user_agent: string;
  deadline_s: number;
  eia: string;
  summary: { rows: number; ok: number; failed: number; not_probed: number };
  rows: VerifyRow[];
}

/** Text for a Markdown table cell or line: no markup, HTML, pipe or line break survives. */
export function markdownText(s: string): string {
  return terminalText(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|#~!]/g, (c) => `\\${c}`);
}

const num = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));
const ratio = (n: number | null): string => (n === null ? '—' : n.toFixed(2));
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** One row's cells, in COLUMNS order (raw text: each format escapes it). */
function cells(r: VerifyRow): string[] {
  return [
    r.id,
    r.connector,
    r.status === null ? 'none' : String(r.status),
    r.parsed ? 'yes' : 'no',
    num(r.customers_out),
    num(r.customers_served),
    num(r.counties),
    num(r.counties_outside_territory),
    ratio(r.served_vs_eia),
    num(r.ms),
    r.failure?.kind ?? 'ok',
  ];
}
const COLUMNS = [
  'id',
  'connector',
  'answer',
  'parsed',
  'out',
  'served',
  'counties',
  'outside',
  'served/EIA',
  'ms',
  'result',
];
const NUMERIC = new Set([4, 5, 6, 7, 8, 9]);

/** `2 of 5 rows failed (1 dns, 1 schema_changed)` or `all 5 rows answered and parsed`. */
export function verdict(report: VerifyReport): string {
  const { rows, failed } = report.summary;
  if (failed === 0) return `all ${rows} rows answered and parsed`;
  const kinds = new Map<string, number>();
  for (const r of report.rows) if (r.failure) kinds.set(r.failure.kind, (kinds.get(r.failure.kind) ?? 0) + 1);
  const list = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
  return `${failed} of ${rows} rows failed (${list})`;
}

export function formatTerminal(report: VerifyReport): string {
  const rows = report.rows.map((r) => cells(r).map(terminalText));
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (NUMERIC.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const failures = report.rows.flatMap((r) =>
    r.failure
      ? [
          `${terminalText(r.id)} (${r.failure.kind}): ${terminalText(r.failure.message)}`,
          `  what to do: ${terminalText(r.failure.advice)}`,
        ]
      : [],
  );
  const head = report.summary.failed ? 'FAILED' : 'OK';
  return [
    line(COLUMNS),
    ...rows.map(line),
    ...(failures.length ? ['', 'Failures:', ...failures] : []),
    '',
    `${head}: ${verdict(report)} · ${seconds(report.ms)} · ${terminalText(report.eia)}`,
    '',
  ].join('\n');
}

export function formatMarkdown(report: VerifyReport): string {
  const head = ['id', 'utility', ...COLUMNS.slice(1)];
  const row = (r: VerifyRow) => {
    const c = cells(r);
    return `| ${[c[0], r.utility, ...c.slice(1)].map(markdownText).join(' | ')} |`;
  };
  const failures = report.rows.flatMap((r) =>
    r.failure
      ? [
          `### ${markdownText(r.id)}: ${markdownText(r.utility)} (${r.failure.kind})`,
          '',
          `- What happened: ${markdownText(r.failure.message)}`,
          `- What to do: ${markdownText(r.failure.advice)}`,
          `- URL: ${markdownText(r.url)}`,
          '',
        ]
      : [],
  );
  return [
    '# Source verification',
    '',
    `${report.started_at} to ${report.finished_at} (${seconds(report.ms)}), registry ${markdownText(report.registry)}, User-Agent ${markdownText(report.user_agent)}; compared with ${markdownText(report.eia)}.`,
    '',
    `**${report.summary.failed ? 'Failed' : 'OK'}: ${markdownText(verdict(report))}.**`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, i) => (NUMERIC.has(i - 1) ? '---:' : '---')).join(' | ')} |`,
    ...report.rows.map(row),
    '',
    ...(failures.length ? ['## Failures', '', ...failures] : []),
  ].join('\n');
}
