// In-process fuzz of one connector: its fixture served on 127.0.0.1 beside the healthy neighbour, one Pipeline
// (in-memory state and tree, a manual clock, small deadlines), one cycle per mutation, each checked for: the cycle
// completed in time, the neighbour's fresh count was published, nothing absurd was published.
import { manualClock } from '../../src/clock.ts';
import { LOOPBACK_HTTP, type HttpOptions } from '../../src/sources/http.ts';
import { Pipeline } from '../../src/pipeline.ts';
import type { CycleSummary } from '../../src/cycle/summary.ts';
import { MemoryTreeWriter } from '../../src/publish/tree-writer.ts';
import type { Fixture } from './fixtures.ts';
import type { Mutation } from './mutations.ts';
import { FuzzUpstream } from './upstream.ts';
import { absurdValues, csvProblems, feedProblems, type Absurd } from './absurd.ts';
import {
  NEIGHBOUR,
  fuzzSources,
  neighbourRoute,
  registryCsv,
  type MapData,
  type SourcesData,
  type CountyData,
} from './registry.ts';

/** Small deadlines, so a stalled answer costs seconds, not the production 30 s; yet loose enough that a healthy
 * loopback chain (three pages) meets them on a loaded CI machine. */
export const FUZZ_HTTP: Partial<HttpOptions> = {
  ...LOOPBACK_HTTP,
  connectTimeoutMs: 2_000,
  bodyTimeoutMs: 2_000,
  requestDeadlineMs: 2_500,
  sourceDeadlineMs: 6_000,
  maxBytes: 2 * 1024 * 1024,
};
/** A cycle running longer than this has hung (the measure). */
export const HANG_MS = 60_000;

export interface CaseOutcome {
  mutation: Mutation | null;
  /** the mutated route's path */
  route: string | null;
  /** the error Pipeline.cycle threw (the CLI would exit non-zero) */
  threw: string | null;
  hung: boolean;
  ms: number;
  /** why the neighbour's fresh count is not what was published, or null */
  neighbour: string | null;
  absurd: Absurd[];
  /** how each fixture source fared: its failure reason, or 'ok' */
  polls: Record<string, string>;
}

type Cycled = { summary: CycleSummary | null; threw: string | null; hung: boolean; ms: number };

export class ConnectorFuzz {
  private cycles = 0;
  private neighbourCount = 0;
  private readonly clock = manualClock(new Date('2026-10-10T12:00:00Z'));
  private readonly mem = new MemoryTreeWriter(this.clock());
  private pipeline!: Pipeline;
  private upstream!: FuzzUpstream;
  private neighbour!: FuzzUpstream;

  private constructor(readonly fixture: Fixture) {}

  static async open(
    fixture: Fixture,
    http: Partial<HttpOptions> = FUZZ_HTTP,
    cycleBudgetMs?: number,
  ): Promise<ConnectorFuzz> {
    const f = new ConnectorFuzz(fixture);
    const maxBytes = http.maxBytes ?? 20 * 1024 * 1024;
    f.upstream = await new FuzzUpstream(fixture.routes, maxBytes).start();
    f.neighbour = await new FuzzUpstream([neighbourRoute(() => f.neighbourCount)], maxBytes).start();
    const sources = fuzzSources(registryCsv([{ fixture, base: f.upstream.base }], f.neighbour.base));
    f.pipeline = await Pipeline.open({
      stateDir: ':memory:',
      outDir: '',
      sources,
      clock: f.clock,
      simulated: false,
      http,
      cycleBudgetMs,
      writer: (now) => {
        f.mem.now = now;
        return f.mem;
      },
    });
    return f;
  }

  /** One case: a cycle with `m` applied (null: the recordings as they are), then a clean cycle if it changed state. */
  async run(m: Mutation | null): Promise<CaseOutcome> {
    this.upstream.mutation = m;
    const c = await this.cycle();
    this.upstream.mutation = null;
    const out = this.outcome(m, c);
    // A mutation that was stored is replaced by the recordings again, so every case starts from the same state;
    // what that clean cycle finds wrong (state the mutation left behind) counts against the case.
    if (m && c.summary && c.summary.changed > 1) {
      const after = this.outcome(null, await this.cycle());
      out.threw ??= after.threw && `after the clean cycle: ${after.threw}`;
      out.hung ||= after.hung;
      out.neighbour ??= after.neighbour && `after the clean cycle: ${after.neighbour}`;
      out.absurd.push(...after.absurd.map((a) => ({ ...a, rule: `after the clean cycle: ${a.rule}` })));
    }
    return out;
  }

  private async cycle(): Promise<Cycled> {
    this.clock.advance(60_000);
    this.neighbourCount = 100 + ++this.cycles;
    const t0 = Date.now();
    const work = this.pipeline.cycle({ all: true }).then(
      (summary) => ({ summary, threw: null }),
      (err: Error) => ({ summary: null, threw: err?.stack ?? String(err) }),
    );
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), HANG_MS)));
    const first = await Promise.race([work, hang]);
    clearTimeout(timer);
    if (first !== 'hung') return { ...first, hung: false, ms: Date.now() - t0 };
    // Let the hung cycle end before the next one starts (two cycles at once would test something else).
    const late = await Promise.race([work, new Promise<null>((r) => (timer = setTimeout(() => r(null), HANG_MS)))]);
    clearTimeout(timer);
    if (!late)
      throw new Error(
        `A ${this.fixture.connector} fuzz cycle has not ended ${(2 * HANG_MS) / 1000} s after it started; stopping this connector's run`,
      );
    return { ...late, hung: true, ms: Date.now() - t0 };
  }

  private outcome(m: Mutation | null, c: Cycled): CaseOutcome {
    const polls: Record<string, string> = {};
    for (const r of this.fixture.rows)
      polls[r.id] =
        c.summary?.failures.find((f) => f.source === r.id)?.reason ??
        (c.summary?.late.includes(r.id) ? 'late' : c.summary ? 'ok' : 'no cycle');
    const route = m ? this.fixture.routes[m.route % this.fixture.routes.length].path : null;
    if (!c.summary)
      return {
        mutation: m,
        route,
        threw: c.threw,
        hung: c.hung,
        ms: c.ms,
        neighbour: 'the cycle did not complete',
        absurd: [],
        polls,
      };
    return {
      mutation: m,
      route,
      threw: null,
      hung: c.hung,
      ms: c.ms,
      neighbour: this.neighbourProblem(),
      absurd: this.absurd(),
      polls,
    };
  }

  /** The `data` of a document this cycle published, as the caller expects it to be. */
  private doc<T>(rel: string): T | undefined {
    const f = this.mem.files.get(`api/v1/${rel}`);
    return f ? JSON.parse(f.body.toString('utf8')).data : undefined;
  }

  private neighbourProblem(): string | null {
    const n = this.neighbourCount;
    const map = this.doc<MapData>('live/map.json')?.[NEIGHBOUR.fips]?.[0];
    const src = this.doc<SourcesData>('live/sources.json')?.sources?.find((s) => s.id === NEIGHBOUR.id);
    const county = this.doc<CountyData>(`live/counties/${NEIGHBOUR.fips}.json`)?.sources?.find(
      (s) => s.source_id === NEIGHBOUR.id,
    );
    if (map !== n) return `live/map.json ${NEIGHBOUR.fips} shows ${String(map)}, not the neighbour's ${n}`;
    if (src?.customers_out !== n || src.last_error !== null)
      return `live/sources.json neighbour shows ${JSON.stringify(src && { customers_out: src.customers_out, last_error: src.last_error })}, not ${n} and no error`;
    if (county?.customers_out !== n)
      return `live/counties/${NEIGHBOUR.fips}.json neighbour shows ${String(county?.customers_out)}, not ${n}`;
    return null;
  }

  /** Absurd values in every live JSON document this cycle wrote; feeds that are not XML; CSV cells that are formulas. */
  private absurd(): Absurd[] {
    const now = this.clock().toISOString();
    const found: Absurd[] = [];
    for (const [file, f] of this.mem.files) {
      if (f.entry.generated_at !== now) continue;
      const text = () => f.body.toString('utf8');
      if (/\.(rss|atom)$/.test(file)) found.push(...feedProblems(file, text()));
      else if (file.endsWith('.csv')) found.push(...csvProblems(file, text()));
      else if (file.startsWith('api/v1/live/') && file.endsWith('.json'))
        found.push(...absurdValues(file, JSON.parse(text())));
    }
    return found;
  }

  async close(): Promise<void> {
    const steps = [() => this.pipeline?.close(), () => this.upstream?.stop(), () => this.neighbour?.stop()];
    for (const step of steps) await Promise.resolve(step()).catch(() => {});
  }
}
