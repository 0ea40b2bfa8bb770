// The ETR record's definitions on a hand-made incident history: coverage over every incident, the trust figures over
// the incidents with an ETR that have left their feed, null (never 0) where nothing is counted.
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from './db.ts';
import { etrRecord } from './etr-record.ts';
import { closeAll, makeTempDir, removeTempDir } from '../../test/clean-machine.ts';

const dir = makeTempDir('etr-record');
afterAll(() => closeAll(() => removeTempDir(dir)));

const at = (hhmm: string, day = '2026-09-01') => `${day}T${hhmm}:00.000Z`;

async function incident(db: Db, source: string, id: string, first: string, last: string, etrs: string[]) {
  const list = etrs.map((e) => `{'etr': '${e}', 'seen_at': '${first}'}`).join(', ');
  await db.run(
    `INSERT INTO incident_history VALUES (?, ?, ?, ?, ?, [${list}]::STRUCT(etr VARCHAR, seen_at VARCHAR)[], 100)`,
    [source, id, first, last, etrs.at(-1) ?? null],
  );
}

describe('etrRecord', () => {
  it('counts coverage over all incidents and the trust figures over the finished ones with an ETR', async () => {
    const db = await Db.open(dir);
    try {
      await db.run(
        "INSERT INTO sources (id, utility, states, connector, url, interval_min, tier, options) VALUES ('s', 'S Power', 'KY', 'kubra', 'x', 15, 1, '{}'), ('t', 'T Power', 'KY', 'kubra', 'x', 15, 1, '{}')",
      );
      await incident(db, 's', 'a', at('10:00'), at('10:30'), [at('11:00')]); // gone by its first ETR
      await incident(db, 's', 'b', at('10:00'), at('13:30'), [at('11:00'), at('12:00'), at('13:00'), at('14:00')]);
      await incident(db, 's', 'c', at('10:00'), at('11:00'), []); // no ETR: coverage only
      await incident(db, 's', 'd', at('10:00'), at('10:00'), [at('12:00')]); // still listed: no outcome yet
      await db.run("INSERT INTO obs_incident (source_id, id, fips, customers_out) VALUES ('s', 'd', '21111', 5)");
      await incident(db, 's', 'e', at('08:00', '2026-10-01'), at('09:00', '2026-10-01'), [
        at('08:30', '2026-10-01'),
        at('09:00', '2026-10-01'),
      ]);
      await incident(db, 't', 'f', at('08:00', '2026-10-01'), at('09:00', '2026-10-01'), []);
      const rows = await etrRecord(db);
      expect(rows).toEqual([
        {
          ...{ source_id: 's', utility: 'S Power', year: 2026, month: 9, incidents: 4, with_etr: 3 },
          ...{ etr_coverage_pct: 75, etr_finished: 2, restored_by_first_etr_pct: 50 },
          ...{ etr_slip_median_min: 90, etr_slip_p90_min: 162, moved_more_than_twice_pct: 50 },
        },
        {
          ...{ source_id: 's', utility: 'S Power', year: 2026, month: 10, incidents: 1, with_etr: 1 },
          ...{ etr_coverage_pct: 100, etr_finished: 1, restored_by_first_etr_pct: 0 },
          ...{ etr_slip_median_min: 30, etr_slip_p90_min: 30, moved_more_than_twice_pct: 0 },
        },
        {
          ...{ source_id: 't', utility: 'T Power', year: 2026, month: 10, incidents: 1, with_etr: 0 },
          ...{ etr_coverage_pct: 0, etr_finished: 0, restored_by_first_etr_pct: null },
          ...{ etr_slip_median_min: null, etr_slip_p90_min: null, moved_more_than_twice_pct: null },
        },
      ]);
      expect((await etrRecord(db, [], 't')).map((r) => r.source_id)).toEqual(['t']);
    } finally {
      db.close();
    }
  });
});
