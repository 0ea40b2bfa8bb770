// One poll's budget: body bytes read and records kept over a source's whole poll (every page, tile and request).
// spec: Limits — a source never blocks a cycle. The 20 MB cap bounds one answer; this bounds the poll, so an upstream
// that pages or tiles without end fails its one source with `too_large` before it can exhaust the poller's memory.
import { SourceError } from '../errors.ts';

export interface BudgetLimits {
  /** body bytes over the poll (304s count their cached body: the connector reads it again) */
  bytes: number;
  /** records the connector keeps over the poll: ArcGIS features, Kubra cluster records */
  records: number;
}

/**
 * About fifteen times the largest real poll recorded (DTE's ArcGIS layer, 4 MB in 5 pages; Kubra cluster walks keep
 * 1–2 thousand records), and small enough that a hostile row stays far below the poller's MemoryMax.
 */
export const DEFAULT_BUDGET: BudgetLimits = { bytes: 64 * 1024 * 1024, records: 100_000 };

/** The registry options that raise (or lower) a row's budget. */
export const BUDGET_OPTIONS = { bytes: 'max_poll_bytes', records: 'max_records' } as const;

export class PollBudget {
  bytes = 0;
  records = 0;

  constructor(
    readonly limits: BudgetLimits = DEFAULT_BUDGET,
    /** a bad budget option: the poll fails with it as a `config` error at its first request */
    private readonly problem: string | null = null,
  ) {}

  /** The budget a registry row's options set (`max_poll_bytes`, `max_records`), else the defaults. */
  static of(options: Record<string, unknown>): PollBudget {
    const problems: string[] = [];
    const pick = (key: keyof BudgetLimits): number => {
      const v = options[BUDGET_OPTIONS[key]];
      if (v === undefined) return DEFAULT_BUDGET[key];
      if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
      problems.push(`options.${BUDGET_OPTIONS[key]} must be a positive integer, got ${JSON.stringify(v)}`);
      return DEFAULT_BUDGET[key];
    };
    const limits = { bytes: pick('bytes'), records: pick('records') };
    return new PollBudget(limits, problems.length ? problems.join('; ') : null);
  }

  /** Charges `n` body bytes read from `url`; past the budget the poll fails (and the read in progress stops). */
  read(n: number, url: string): void {
    this.check();
    this.bytes += n;
    if (this.bytes > this.limits.bytes)
      throw new SourceError(
        'too_large',
        `${url}: this poll has read more than its budget of ${this.limits.bytes.toLocaleString('en-US')} body bytes ` +
          `over all its requests; if the feed is really this large, raise options.${BUDGET_OPTIONS.bytes}`,
      );
  }

  /** Charges `n` more records kept over the poll (ArcGIS before it keeps a page); past the budget the poll fails. */
  keep(n: number, what: string): void {
    this.check();
    this.records += n;
    if (this.records > this.limits.records)
      throw new SourceError(
        'too_large',
        `${what}: this poll would keep more than its budget of ${this.limits.records.toLocaleString('en-US')} ` +
          `records; if the feed really has this many, raise options.${BUDGET_OPTIONS.records}`,
      );
  }

  private check(): void {
    if (this.problem) throw new SourceError('config', this.problem);
  }
}
