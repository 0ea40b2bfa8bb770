// The one validation step between every connector and state (spec: Limits — a broken source never stops a cycle).
// Rule: counts must be non-negative safe integers within a plausible bound; one implausible value rejects the source's
// whole snapshot for this poll (reason `implausible_value`). The source keeps its last good snapshot and goes stale by
// the normal rule. The whole snapshot, not the record: dropping one county would read as "it vanished" and close its
// outage on a value we could not trust. A customers-served figure that is negative or out of range (feeds use -1 for
// "unknown") is not a count of anyone out: it becomes null (unknown) and the snapshot stays. Text is cleaned first
// (clean-snapshot.ts), so neither the stored snapshot nor a message quoting a name carries controls or 100 KB names.
import { SourceError } from '../errors.ts';
import { cleanSnapshotText } from './clean-snapshot.ts';
import type { SourceDef } from './source-def.ts';
import type { Snapshot } from './snapshot.ts';

/** More customers than any US county has (Los Angeles: about 3.6 million): the bound of one record without a registry count. */
export const RECORD_CAP = 5_000_000;
/** More than every US customer together (about 160 million): the bound of a snapshot total without a registry count. */
export const TOTAL_CAP = 200_000_000;
/** More customers than any US utility serves (the largest, about 8.6 million): the bound of a served total. */
export const SERVED_CAP = 20_000_000;
/** Times outside these years are sentinels (`+275760-…`, `12/31/9999`), not restoration estimates or starts. */
const EARLIEST_MS = Date.UTC(1990, 0, 1);
const LATEST_MS = Date.UTC(2100, 0, 1);
/** A count may exceed the utility's EIA-861 customers by this factor (growth, meters vs customers), no more. */
export const CUSTOMERS_SLACK = 1.5;

function bounds(source: SourceDef): { record: number; total: number } {
  if (!source.customers) return { record: RECORD_CAP, total: TOTAL_CAP };
  const b = Math.ceil(source.customers * CUSTOMERS_SLACK);
  return { record: Math.min(b, RECORD_CAP), total: Math.min(b, TOTAL_CAP) };
}

function check(value: number | null, bound: number, where: string): void {
  if (value === null) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > bound) {
    throw new SourceError(
      'implausible_value',
      `${where} is ${String(value)}: counts must be whole numbers from 0 to ${bound.toLocaleString('en-US')} (the snapshot was rejected; the last good one stays)`,
    );
  }
}

/** A served count we cannot use is unknown, not an error. */
const servedOrNull = (v: number | null, bound: number) =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= bound ? v : null;

/** An ISO time within 1990–2099, else null (unknown). */
const timeOrNull = (v: string | null): string | null => {
  if (v === null) return null;
  const t = Date.parse(v);
  return /^\d{4}-/.test(v) && t >= EARLIEST_MS && t < LATEST_MS ? v : null;
};

const finiteOrNull = (v: number | null, lo: number, hi: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi ? v : null;

/**
 * Throws SourceError('implausible_value') naming the first implausible count; otherwise returns the snapshot, with
 * its text cleaned (`text_cleaned` says what changed), unusable served figures, coordinates off the globe and sentinel
 * times made null (unknown).
 */
export function quarantine(snap: Snapshot, source: SourceDef): Snapshot {
  const cleaned = cleanSnapshotText(snap);
  if (cleaned) snap.text_cleaned = cleaned;
  const b = bounds(source);
  check(snap.customers_out, b.total, 'customers_out');
  snap.customers_served = servedOrNull(snap.customers_served, Math.min(b.total, SERVED_CAP));
  for (const c of snap.counties) {
    check(c.customers_out, b.record, `county ${c.fips} customers_out`);
    c.customers_served = servedOrNull(c.customers_served, b.record);
  }
  for (const a of snap.areas) {
    for (const [k, v] of [
      ['customers_out', a.customers_out],
      ['out_lower', a.out_lower],
      ['out_upper', a.out_upper],
    ] as const)
      check(v, b.record, `area ${a.name} ${k}`);
    a.customers_served = servedOrNull(a.customers_served, b.record);
    a.etr = timeOrNull(a.etr);
  }
  for (const i of snap.incidents) {
    check(i.customers_out, b.record, `incident ${i.id} customers_out`);
    i.lat = finiteOrNull(i.lat, -90, 90);
    i.lon = finiteOrNull(i.lon, -180, 180);
    i.etr = timeOrNull(i.etr);
    i.started_at = timeOrNull(i.started_at);
  }
  const countySum = snap.counties.reduce((s, c) => s + c.customers_out, 0);
  check(countySum, b.total, 'the sum of county customers_out');
  return snap;
}
