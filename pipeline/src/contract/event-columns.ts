// Event chunks as columns. Published chunk files store each field as an array (fast to parse); the function layer
// turns them into typed arrays with shared dictionaries, so every retained event fits in memory (about 100 bytes
// each) and a filter is a tight loop over numbers. Events are materialised only for the matches.
import type { EventRow } from '../state/events.ts';
import { EVENT_KINDS, SCOPES, type EventKind, type Scope } from '../state/lifecycle.ts';
import type { ChunkView } from './event-pages.ts';
import { eventStates, inScopes, toPublic, type EventFilters, type PublicEvent } from './events.ts';

export interface EventColumns {
  id: number[];
  at: string[];
  kind: string[];
  scope: string[];
  fips: Array<string | null>;
  state: Array<string | null>;
  utility: Array<string | null>;
  area: Array<string | null>;
  source_id: Array<string | null>;
  outage_id: Array<string | null>;
  customers_out: Array<number | null>;
  pct_out: Array<number | null>;
  threshold: Array<number | null>;
  previous: Array<number | null>;
  etr: Array<string | null>;
  previous_etr: Array<string | null>;
  /** incident events' fields (absent from chunks published before them) */
  etr_slip_min?: Array<number | null>;
  incident_id?: Array<string | null>;
  cause?: Array<string | null>;
  crew_status?: Array<string | null>;
  previous_crew_status?: Array<string | null>;
}

const FIELDS = [
  'id',
  'at',
  'kind',
  'scope',
  'fips',
  'state',
  'utility',
  'area',
  'source_id',
  'outage_id',
  'customers_out',
  'pct_out',
  'threshold',
  'previous',
  'etr',
  'previous_etr',
  'etr_slip_min',
  'incident_id',
  'cause',
  'crew_status',
  'previous_crew_status',
] as const;

export function toColumns(rows: EventRow[]): EventColumns {
  const c = Object.fromEntries(FIELDS.map((f) => [f, [] as unknown[]])) as unknown as Record<
    (typeof FIELDS)[number],
    unknown[]
  >;
  for (const r of rows) for (const f of FIELDS) c[f].push(r[f] ?? null);
  return c as unknown as EventColumns;
}

class Dict {
  private readonly codes = new Map<string, number>();
  readonly values: string[] = [];
  code(v: string | null): number {
    if (v === null) return -1;
    let c = this.codes.get(v);
    if (c === undefined) {
      c = this.values.length;
      this.codes.set(v, c);
      this.values.push(v);
    }
    return c;
  }
  find(v: string): number {
    return this.codes.get(v) ?? -2;
  }
  value(c: number): string | null {
    return c < 0 ? null : this.values[c];
  }
}

const dicts = { fips: new Dict(), state: new Dict(), utility: new Dict(), area: new Dict(), source: new Dict() };

interface Compiled {
  kinds: Set<number> | null;
  fips: number | null;
  state: string | null;
  utility: number | null;
  min: number | null;
  since: number | null;
}
const compiledCache = new WeakMap<EventFilters, Compiled>();
function compile(f: EventFilters): Compiled {
  let c = compiledCache.get(f);
  if (!c) {
    c = {
      kinds: f.kind ? new Set(f.kind.map((k) => EVENT_KINDS.indexOf(k))) : null,
      fips: f.fips ? dicts.fips.find(f.fips) : null,
      state: f.state ?? null,
      utility: f.utility ? dicts.utility.find(f.utility) : null,
      min: f.min_customers ?? null,
      since: f.since ? Date.parse(f.since) : null,
    };
    compiledCache.set(f, c);
  }
  return c;
}

/** Whether a stored state code (`FL`, or a multi-state utility's `VA;NC`) includes `state`; memoised per code. */
const stateLists = new Map<number, string[]>();
function stateCodeHas(code: number, state: string): boolean {
  if (code < 0) return false;
  let list = stateLists.get(code);
  if (!list) stateLists.set(code, (list = eventStates(dicts.state.value(code))));
  return list.includes(state);
}

const num = (v: number | null) => (v === null ? NaN : v);
const ms = (v: string | null) => (v === null ? NaN : Date.parse(v));
const back = (v: number) => (Number.isNaN(v) ? null : v);
const iso = (v: number) => (Number.isNaN(v) ? null : new Date(v).toISOString());

export class ColumnChunk implements ChunkView {
  readonly length: number;
  private readonly ids: Float64Array;
  private readonly at: Float64Array;
  private readonly kind: Uint8Array;
  private readonly scope: Uint8Array;
  private readonly fips: Int32Array;
  private readonly state: Int32Array;
  private readonly utility: Int32Array;
  private readonly area: Int32Array;
  private readonly source: Int32Array;
  private readonly outage: Array<string | null>;
  private readonly customers: Float64Array;
  private readonly pct: Float64Array;
  private readonly threshold: Float64Array;
  private readonly previous: Float64Array;
  private readonly etr: Float64Array;
  private readonly previousEtr: Float64Array;
  /** incident events' sparse text and slip columns, as published (null-filled for older chunks) */
  private readonly incident: Pick<
    Required<EventColumns>,
    'etr_slip_min' | 'incident_id' | 'cause' | 'crew_status' | 'previous_crew_status'
  >;

  constructor(
    c: EventColumns,
    private readonly countyName: (fips: string) => string | undefined,
  ) {
    const n = (this.length = c.id.length);
    this.ids = Float64Array.from(c.id);
    this.at = Float64Array.from(c.at, ms);
    this.kind = Uint8Array.from(c.kind, (k) => EVENT_KINDS.indexOf(k as EventKind));
    this.scope = Uint8Array.from(c.scope, (s) => SCOPES.indexOf(s as Scope));
    this.fips = Int32Array.from(c.fips, (v) => dicts.fips.code(v));
    this.state = Int32Array.from(c.state, (v) => dicts.state.code(v));
    this.utility = Int32Array.from(c.utility, (v) => dicts.utility.code(v));
    this.area = Int32Array.from(c.area, (v) => dicts.area.code(v));
    this.source = Int32Array.from(c.source_id, (v) => dicts.source.code(v));
    this.outage = c.outage_id.slice(0, n);
    this.customers = Float64Array.from(c.customers_out, num);
    this.pct = Float64Array.from(c.pct_out, num);
    this.threshold = Float64Array.from(c.threshold, num);
    this.previous = Float64Array.from(c.previous, num);
    this.etr = Float64Array.from(c.etr, ms);
    this.previousEtr = Float64Array.from(c.previous_etr, ms);
    const nulls = () => new Array<null>(n).fill(null);
    this.incident = {
      etr_slip_min: c.etr_slip_min ?? nulls(),
      incident_id: c.incident_id ?? nulls(),
      cause: c.cause ?? nulls(),
      crew_status: c.crew_status ?? nulls(),
      previous_crew_status: c.previous_crew_status ?? nulls(),
    };
  }

  id(i: number): number {
    return this.ids[i];
  }

  match(i: number, f: EventFilters): boolean {
    if (!inScopes(SCOPES[this.scope[i]], f)) return false;
    const c = compile(f);
    if (c.fips !== null && this.fips[i] !== c.fips) return false;
    if (c.state !== null && !stateCodeHas(this.state[i], c.state)) return false;
    if (c.utility !== null && this.utility[i] !== c.utility) return false;
    if (c.kinds !== null && !c.kinds.has(this.kind[i])) return false;
    if (c.min !== null && !(this.customers[i] >= c.min) && !(c.min === 0)) return false;
    if (c.since !== null && this.at[i] < c.since) return false;
    return true;
  }

  event(i: number): PublicEvent {
    const row: EventRow = {
      id: this.ids[i],
      at: new Date(this.at[i]).toISOString(),
      kind: EVENT_KINDS[this.kind[i]],
      scope: SCOPES[this.scope[i]] as Scope,
      fips: dicts.fips.value(this.fips[i]),
      state: dicts.state.value(this.state[i]),
      utility: dicts.utility.value(this.utility[i]),
      area: dicts.area.value(this.area[i]),
      source_id: dicts.source.value(this.source[i]),
      outage_id: this.outage[i],
      customers_out: back(this.customers[i]),
      pct_out: back(this.pct[i]),
      threshold: back(this.threshold[i]),
      previous: back(this.previous[i]),
      etr: iso(this.etr[i]),
      previous_etr: iso(this.previousEtr[i]),
      etr_slip_min: this.incident.etr_slip_min[i],
      incident_id: this.incident.incident_id[i],
      cause: this.incident.cause[i],
      crew_status: this.incident.crew_status[i],
      previous_crew_status: this.incident.previous_crew_status[i],
    };
    return toPublic(row, this.countyName);
  }
}
