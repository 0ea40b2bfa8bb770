// LUMA normalize: `totals` is the island's customers out and served; each of LUMA's operating regions is an area.
// Regions span several municipios and are not counties, so the snapshot has no counties and no incidents. A region
// whose count cannot be read is never 0: it is no area, noted in `unreadable` beside LUMA's total; without the total
// (the regions' sum stands in) it fails the poll naming the field, as does a total present but unreadable.
import type { SourceDef } from '../source-def.ts';
import { emptySnapshot, type AreaCount, type Snapshot } from '../snapshot.ts';
import { countOf } from '../checks.ts';
import { optHeadlineCount, recordCount } from '../unreadable.ts';
import { readRaw, WHAT } from './schema.ts';

export function normalize(raw: unknown, source: SourceDef): Snapshot {
  const { totals, regions } = readRaw(raw);
  const snap = emptySnapshot(source.utility);
  const paths = new Set<string>();
  for (const region of regions) {
    const name = region.name.trim();
    const out = recordCount(region.totalClientsWithoutService, 'totalClientsWithoutService', name, snap.unreadable);
    if (out === null) continue;
    snap.areas.push(areaOf(name, uniquePath(name, paths), out, countOf(region.totalClients)));
  }
  // LUMA's own totals. Without one, the regions' sum stands in for customers out (a region with nobody out adds
  // nothing), but not for customers served: the list need not name every region.
  const headline = optHeadlineCount(totals.totalClientsWithoutService, 'totals.totalClientsWithoutService', WHAT);
  const regionsOut = snap.areas.reduce((s, a) => s + a.customers_out, 0);
  snap.customers_out = headline ?? (snap.areas.length ? regionsOut : null);
  snap.customers_served = countOf(totals.totalClients);
  // Only island-wide and regional totals: no county sums and no outage points, whatever the regions hold.
  snap.basis = 'utility_total';
  return snap;
}

/** The area's path in LUMA's own tree (flat); a name met twice gets `#2`, `#3`… so two rows never share one identity. */
function uniquePath(name: string, paths: Set<string>): string[] {
  let step = name;
  for (let k = 2; paths.has(step); k += 1) step = `${name} #${k}`;
  paths.add(step);
  return [step];
}

/** A region as an area: in no single county (fips null); LUMA publishes no masking, ETR or extent per region. */
function areaOf(name: string, path: string[], out: number, served: number | null): AreaCount {
  return {
    fips: null,
    name,
    path,
    customers_out: out,
    out_display: String(out),
    out_lower: out,
    out_upper: out,
    masked: false,
    customers_served: served,
    etr: null,
    bbox: null,
  };
}
