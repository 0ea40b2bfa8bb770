// The DataCapable connector on Seattle City Light's own captures (the full UtiliSocial events array, re-serialized):
// the 2025-02-25 windstorm peak, the 2026-03-12 wind event's 30 versions, a calm day. Counties by the test's own
// point lookup; planned outages (type PLANNED_OUTAGE) in progress count, flagged, and planned_out is their sum.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalize } from './normalize.ts';
import { hasSharedData, sharedJson, sharedPath, sourceDef } from '../../../test/shared-data.ts';
import { expectCountySums } from '../../../test/county-lookup.ts';

type Event = { id: number; type?: string; numPeople: number; latitude: number; longitude: number };
const scl = sourceDef({ connector: 'datacapable', utility: 'Seattle City Light', states: ['WA'] });
const FILES = [
  'payloads/datacapable/scl-events-2025-02-25T1139Z-davemattson.json',
  'payloads/datacapable/scl-events-2026-03-12T0553Z.json',
  'payloads/datacapable/scl-events-2026-08-22T1748Z.json',
  'payloads/datacapable/seattle-city-light-events-2026-03-08T0945Z.json',
];
const isPlannedType = (e: Event) => e.type === 'PLANNED_OUTAGE';
const sum = (events: Event[]) => events.reduce((s, e) => s + e.numPeople, 0);
const points = (events: Event[]) => events.map((e) => ({ lon: e.longitude, lat: e.latitude, out: e.numPeople }));

describe.skipIf(!hasSharedData)("datacapable on Seattle City Light's own captures", () => {
  it.each(FILES)('%s: every event by county, planned ones counted and flagged', (file) => {
    const events = sharedJson(file) as Event[];
    const snap = normalize(events, scl);
    expect(snap.customers_out).toBe(sum(events));
    expect(snap.planned_out).toBe(sum(events.filter(isPlannedType)));
    expect(snap.incidents).toHaveLength(events.length);
    expect(snap.incidents.map((i) => i.planned)).toEqual(events.map(isPlannedType));
    const { placed } = expectCountySums(snap, points(events));
    expect(placed.has('53033')).toBe(true); // King County, by the test's own lookup
  });

  it('replays the 2026-03-12 wind event version by version, each total its own', () => {
    const dir = sharedPath('sequences/scl-events-wind-mar-2026');
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    expect(files.length).toBe(30);
    const totals = files.map((f) => {
      const events = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Event[];
      const snap = normalize(events, scl);
      expect(snap.customers_out, f).toBe(sum(events));
      expect(snap.planned_out, f).toBe(sum(events.filter(isPlannedType)));
      return snap.customers_out ?? 0;
    });
    expect(Math.max(...totals)).toBeGreaterThan(Math.min(...totals)); // the event rose and fell
    // The peak, version 0005: its events (planned work in progress among them) are the total, as the map counts it.
    const peak = JSON.parse(fs.readFileSync(path.join(dir, '0005.json'), 'utf8')) as Event[];
    expect(peak.some(isPlannedType)).toBe(true);
    expect(totals[4]).toBe(sum(peak));
    expect(Math.max(...totals)).toBe(totals[4]);
  });
});
