// Planned work per county (issue 36 part 3): a county's planned_out is the customers of the planned outages placed in
// it, counted in customers_out; null where a source with customers out there does not tell planned from unplanned, or
// gives planned work only as a total. The snapshots are the test's own; the pipeline stores, rolls up and publishes.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/clock.ts';
import { endpoint } from '../src/contract/catalogue.ts';
import { fileFor } from '../src/contract/urls.ts';
import { Pipeline } from '../src/pipeline.ts';
import { MemoryTreeWriter } from '../src/publish/tree-writer.ts';
import type { Connector } from '../src/sources/connector.ts';
import { withCountyPlanned } from '../src/sources/planned.ts';
import type { Incident, Snapshot } from '../src/sources/snapshot.ts';
import { tempDir } from './scripted-feed.ts';
import { sourceDef } from './shared-data.ts';

const incident = (id: string, fips: string, n: number, planned: boolean): Incident => ({
  ...{ id, fips, customers_out: n, etr: null, crew_status: null, cause: null, started_at: null },
  ...{ lat: null, lon: null, city: null, planned },
});

/** A point feed's snapshot: its counties are the sums of its incidents, as the connectors place them. */
function pointSnapshot(incidents: Incident[], planned: boolean | 'total only'): Snapshot {
  const by = new Map<string, number>();
  for (const i of incidents) by.set(i.fips!, (by.get(i.fips!) ?? 0) + i.customers_out);
  const out = incidents.reduce((s, i) => s + i.customers_out, 0);
  const plannedOut = incidents.filter((i) => i.planned).reduce((s, i) => s + i.customers_out, 0);
  return {
    ...{ utility: 'x', unit: 'customers', customers_out: out, customers_served: null },
    planned_out: planned === false ? null : planned === 'total only' ? plannedOut + 50 : plannedOut,
    counties: [...by].map(([fips, n]) => ({ fips, customers_out: n, customers_served: null })),
    ...{ areas: [], incidents, unmatched: [], unreadable: [] },
    ...{ notice: null, basis: 'outage_only' },
  };
}

describe('withCountyPlanned', () => {
  it('gives each county the customers of the planned incidents placed in it', () => {
    const s = withCountyPlanned(
      pointSnapshot(
        [incident('a', '04015', 40, true), incident('b', '04015', 10, false), incident('c', '04005', 7, false)],
        true,
      ),
    );
    expect(Object.fromEntries(s.counties.map((c) => [c.fips, c.planned_out]))).toEqual({ '04015': 40, '04005': 0 });
  });
  it('leaves them unknown when the planned incidents do not make up the planned total, or the feed does not tell', () => {
    const list = () => [incident('a', '04015', 40, true), incident('b', '04015', 10, false)];
    for (const how of ['total only', false] as const)
      expect(withCountyPlanned(pointSnapshot(list(), how)).counties.map((c) => c.planned_out)).toEqual([null]);
  });
});

describe('planned_out in the county document', () => {
  const tmp = tempDir('county-planned');
  const clock = manualClock(new Date('2026-09-01T12:01:00Z'));
  const tree = new MemoryTreeWriter(clock());
  let p: Pipeline;
  // Mohave County AZ (04015): one source tells planned work, the other does not; Coconino (04005) only the first.
  const snapshots: Record<string, Snapshot> = {
    tells: pointSnapshot(
      [incident('p1', '04015', 93, true), incident('u1', '04015', 12, false), incident('p2', '04005', 30, true)],
      true,
    ),
    silent: pointSnapshot([incident('s1', '04015', 5, false)], false),
  };
  const connector: Connector = {
    fetch: async ({ source }) => source.id,
    normalize: (raw) => structuredClone(snapshots[raw as string]),
  };
  const county = (fips: string) =>
    JSON.parse(tree.files.get(fileFor(endpoint('live.county'), { fips }, 'json'))!.body.toString('utf8')).data;

  beforeAll(async () => {
    const mk = (id: string) => sourceDef({ id, connector: 'arcgis', states: ['AZ'], url: `http://127.0.0.1/${id}` });
    p = await Pipeline.open({
      stateDir: path.join(tmp.dir, 'state'),
      outDir: path.join(tmp.dir, 'public'),
      sources: [mk('tells'), mk('silent')],
      clock,
      simulated: false,
      connectors: () => connector,
      writer: (now) => Object.assign(tree, { now }),
    });
    await p.cycle({ all: true });
  });
  afterAll(async () => {
    await p?.close();
    tmp.remove();
  });

  it('counts planned work in customers_out and says how much of it is planned, per source', () => {
    const c = county('04005');
    expect(c).toMatchObject({ customers_out: 30, planned_out: 30 });
    expect(c.sources).toEqual([expect.objectContaining({ source_id: 'tells', customers_out: 30, planned_out: 30 })]);
  });
  it('is null for a county where a source with customers out does not tell planned from unplanned', () => {
    const c = county('04015');
    expect(c).toMatchObject({ customers_out: 93 + 12 + 5, planned_out: null });
    const by = Object.fromEntries(
      c.sources.map((s: { source_id: string; planned_out: number | null }) => [s.source_id, s.planned_out]),
    );
    expect(by).toEqual({ tells: 93, silent: null });
  });
  it('goes back to 0, not null, when the planned work ends', async () => {
    snapshots.tells = pointSnapshot([incident('u2', '04005', 8, false)], true);
    clock.advance(15 * 60_000);
    await p.cycle({ all: true });
    expect(county('04005')).toMatchObject({ customers_out: 8, planned_out: 0 });
  });
});
