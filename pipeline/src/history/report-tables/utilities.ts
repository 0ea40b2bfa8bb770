// The county report's utilities table from EIA-861: the utilities serving a county (Service_Territory), their
// customers in the state (Sales_Ult_Cust, TOTAL, without energy-only) and reliability (IEEE standard first).
import type { Db } from '../../state/db.ts';
import { groupBy, type Row } from './shared.ts';

export interface Utilities {
  /** years of the EIA-861 files loaded */
  years: number[];
  utilitiesOf(y: number, fips: string, code: string): Row[];
}

/** For a report year, the latest file year at or before it (else the earliest). */
const eiaYearFor = (years: number[], y: number) => [...years].reverse().find((x) => x <= y) ?? years[0];

export async function loadUtilities(db: Db): Promise<Utilities> {
  const territory = await db.all<{
    year: number;
    utility_number: number;
    utility_name: string;
    state: string;
    fips: string;
  }>('SELECT year, utility_number, utility_name, state, fips FROM eia861_territory');
  const reliability = await db.all<Row & { year: number; utility_number: number; state: string; standard: string }>(
    'SELECT * FROM eia861_reliability',
  );
  const sales = await db.all<{
    year: number;
    utility_number: number;
    state: string;
    customers: number;
  }>(`SELECT year, utility_number, state, sum(customers)::BIGINT AS customers FROM eia861_customers
    WHERE coalesce(service_type, '') <> 'Energy' GROUP BY ALL`);
  const years = [...new Set([...territory, ...reliability, ...sales].map((r) => r.year))].sort();
  const territoryYears = [...new Set(territory.map((t) => t.year))].sort();
  const reliabilityYears = [...new Set(reliability.map((t) => t.year))].sort();
  const salesYears = [...new Set(sales.map((t) => t.year))].sort();
  const territoryBy = groupBy(territory, (t) => `${t.year}|${t.fips}`);
  const reliabilityBy = groupBy(reliability, (r) => `${r.year}|${r.utility_number}|${r.state}`);
  const salesBy = new Map(sales.map((s) => [`${s.year}|${s.utility_number}|${s.state}`, s.customers]));

  function utilitiesOf(y: number, fips: string, code: string): Row[] {
    if (territoryYears.length === 0) return [];
    const ty = eiaYearFor(territoryYears, y);
    const ry = reliabilityYears.length ? eiaYearFor(reliabilityYears, y) : null;
    const sy = salesYears.length ? eiaYearFor(salesYears, y) : null;
    return (territoryBy.get(`${ty}|${fips}`) ?? [])
      .map((t) => {
        const rel = ry === null ? [] : (reliabilityBy.get(`${ry}|${t.utility_number}|${code}`) ?? []);
        const ieee = rel.find((x) => x.standard === 'ieee');
        const pick = ieee ?? rel[0];
        return {
          utility_number: t.utility_number,
          utility_name: t.utility_name,
          state: code,
          territory_year: ty,
          customers_in_state: sy === null ? null : (salesBy.get(`${sy}|${t.utility_number}|${code}`) ?? null),
          reliability_year: pick ? (pick.year as number) : null,
          standard: pick ? (pick.standard as string) : null,
          saidi_with_med: (pick?.saidi_with_med as number) ?? null,
          saifi_with_med: (pick?.saifi_with_med as number) ?? null,
          saidi_without_med: (pick?.saidi_without_med as number) ?? null,
          saifi_without_med: (pick?.saifi_without_med as number) ?? null,
        };
      })
      .sort(
        (a, b) =>
          (b.customers_in_state ?? 0) - (a.customers_in_state ?? 0) || a.utility_name.localeCompare(b.utility_name),
      );
  }
  return { years, utilitiesOf };
}
