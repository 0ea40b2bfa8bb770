// Issue 41 part 5 through the command line: Seattle City Light's March 2026 wind event replayed by `outage poll --once
// --all --now <the version's commit time>`, one process per version (every third) over one state directory, as an operator
// would re-run a storm. The incident events and the ETR record in the state database afterwards equal those derived
// from the recorded events (incident-derive.ts).
import { afterAll, describe, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Db } from '../src/state/db.ts';
import { EVENT_SELECT, type EventRow } from '../src/state/events.ts';
import { etrRecord } from '../src/state/etr-record.ts';
import { hasSharedData } from './shared-data.ts';
import { replayServer, versions } from './sequence-server.ts';
import { expectDerived, expectRecord, sclPoint } from './incident-derive.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const dir = makeTempDir('incident-poll-cli');
let replay: Awaited<ReturnType<typeof replayServer>> | undefined;
afterAll(() =>
  closeAll(
    () => replay?.close(),
    () => removeTempDir(dir),
  ),
);

describe.skipIf(!hasSharedData)('outage poll --now over a recorded storm', () => {
  it("Seattle City Light, March 2026: the state's incident events and ETR record are the recorded events'", async () => {
    const seq = 'scl-events-wind-mar-2026';
    // every third version and the last (the in-process replay, incident-replay.test.ts, takes every one): a process
    // per version is the suite's slowest test otherwise; the derivations below read the same versions
    const all = versions(seq).filter((_, i, list) => i % 3 === 0 || i === list.length - 1);
    replay = await replayServer(seq, (raw) => raw);
    const sources = path.join(dir, 'sources.csv');
    fs.writeFileSync(
      sources,
      `id,utility,state,connector,url,interval_min,tier\nseattle-city-light,Seattle City Light,WA,datacapable,${replay.base}/datacapable/v2/p/scl/map/events,15,2\n`,
    );
    const common = ['--sources', sources, '--state', path.join(dir, 'state'), '--out', path.join(dir, 'public')];
    for (const v of all) {
      replay.state.file = v.file;
      const now = new Date(v.at).toISOString();
      // async: the replay server answers from this process while the poll runs
      await promisify(execFile)(
        process.execPath,
        [BIN, 'poll', '--once', '--all', '--no-deliveries', '--now', now, ...common],
        {
          timeout: 120_000,
        },
      );
    }
    const db = await Db.open(path.join(dir, 'state'));
    try {
      const stream = await db.all<EventRow>(`${EVENT_SELECT} WHERE scope = 'incident' ORDER BY id`);
      const r = { all, stream, record: await etrRecord(db) };
      expectDerived(seq, r, sclPoint, `${seq} (poll --now)`);
      expectRecord(seq, r, sclPoint, `${seq} (poll --now)`);
    } finally {
      db.close();
    }
  }, 900_000);
});
