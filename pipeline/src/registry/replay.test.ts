// replay.ts: a saved probe's problems name the file and the field; a hand-made probe replays; misses and lost
// answers are reported; `sources check` replays probe-directory fixtures through its FixtureParser hook.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { SourceError, UsageError } from '../errors.ts';
import { checkRegistry } from './check.ts';
import { loadProbe, replayFixtures, replayProbe, savedSourceDef } from './replay.ts';
import { testTempDir } from '../../test/clean-machine.ts';
import { hasSharedData, sharedPath } from '../../test/shared-data.ts';

const NISC = 'https://outagemap-data.cloud.coop/kiuc/Hosted_Outage_Map/summary.json';
const kiuc = () => fs.readFileSync(sharedPath('payloads/kiuc/summary.json'));

/** A probe directory written by hand, as CONTRIBUTING.md describes: index.json plus the body files it names. */
function handMade(dir: string, index: unknown, files: Record<string, Buffer | string> = {}): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.json'), typeof index === 'string' ? index : JSON.stringify(index));
  for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), body);
  return dir;
}

describe('loadProbe', () => {
  it.each([
    ['index.json is not JSON', '{"requests": [', SourceError, /index\.json is not JSON/],
    ['no requests', { requests: [] }, SourceError, /index\.json: requests: lists no request/],
    [
      'a relative url',
      { requests: [{ url: '/summary.json', file: 'a.json' }] },
      SourceError,
      /index\.json: requests\.0\.url: must be the absolute http\(s\) URL/,
    ],
    [
      'a 200 without its body',
      { requests: [{ url: NISC }] },
      SourceError,
      /index\.json: requests\.0\.file: a 200 answer needs the file that holds its body/,
    ],
    [
      'a body file that is not there',
      { requests: [{ url: NISC, file: 'gone.json' }] },
      SourceError,
      /index\.json: requests\.0\.file: cannot read `gone\.json`/,
    ],
    [
      'a body file outside the directory',
      { requests: [{ url: NISC, file: '../x.json' }] },
      SourceError,
      /index\.json: requests\.0\.file: `\.\.\/x\.json` leaves the probe directory/,
    ],
  ])('%s', (_what, index, type, message) => {
    const dir = handMade(path.join(testTempDir('replay-load'), 'p'), index);
    expect(() => loadProbe(dir)).toThrow(type);
    expect(() => loadProbe(dir)).toThrow(message);
  });
  it('a directory without index.json is a usage error that says how to make one', () => {
    const dir = testTempDir('replay-none');
    expect(() => loadProbe(dir)).toThrow(UsageError);
    expect(() => loadProbe(dir)).toThrow(/has no index\.json: save one with `outage sources probe ID --save/);
  });
});

describe('replayProbe', () => {
  it.skipIf(!hasSharedData)(
    'replays a hand-made probe (url + file only) through the nisc fetch; --states is needed when index.json has none',
    async () => {
      const dir = handMade(
        path.join(testTempDir('replay-hand'), 'kiuc'),
        { requests: [{ url: NISC, file: 'summary.json' }] },
        { 'summary.json': kiuc() },
      );
      const saved = loadProbe(dir);
      expect(() => savedSourceDef(saved, { connector: 'nisc' })).toThrow(
        /names no states \(source\.states\): give --states/,
      );
      const source = savedSourceDef(saved, { connector: 'nisc', states: ['HI'] });
      expect(source.url).toBe(NISC);
      const { snapshot, served, misses } = await replayProbe(saved, source);
      const region = JSON.parse(kiuc().toString()).regionDataSets[0].regions[0];
      expect(snapshot.counties).toEqual([
        { fips: '15007', customers_out: region.numberOut, customers_served: region.numberServed },
      ]);
      expect([served.length, misses]).toEqual([1, []]);
    },
  );
  it.skipIf(!hasSharedData)(
    'a request the probe does not hold is named with its real URL; an answer the probe never got fails the same way',
    async () => {
      const root = testTempDir('replay-miss');
      const other = handMade(
        path.join(root, 'other'),
        {
          source: { states: ['HI'], url: NISC.replace('kiuc', 'other') },
          requests: [{ url: NISC, file: 'summary.json' }],
        },
        { 'summary.json': kiuc() },
      );
      const saved = loadProbe(other);
      await expect(replayProbe(saved, savedSourceDef(saved, { connector: 'nisc' }))).rejects.toThrow(
        `${other}: while replaying its requests: ${NISC.replace('kiuc', 'other')} answered HTTP 404; the saved probe holds no answer for GET ${NISC.replace('kiuc', 'other')}`,
      );
      const lost = handMade(path.join(root, 'lost'), {
        source: { states: ['HI'] },
        requests: [{ url: NISC, status: null, file: null }],
      });
      const l = loadProbe(lost);
      await expect(replayProbe(l, savedSourceDef(l, { connector: 'nisc' }))).rejects.toMatchObject({
        reason: 'network',
        message: expect.stringContaining(`${lost}: while replaying its requests: ${NISC}`),
      });
    },
  );
  it('a body that is not JSON is named by its saved file', async () => {
    const dir = handMade(
      path.join(testTempDir('replay-html'), 'p'),
      { source: { states: ['HI'] }, requests: [{ url: NISC, file: '01-summary.json' }] },
      { '01-summary.json': '<!doctype html>' },
    );
    const saved = loadProbe(dir);
    await expect(replayProbe(saved, savedSourceDef(saved, { connector: 'nisc' }))).rejects.toMatchObject({
      reason: 'bad_body',
      message: expect.stringMatching(/did not return JSON .*\(saved as 01-summary\.json\)$/),
    });
  });
});

describe.skipIf(!hasSharedData)('replayFixtures: the check FixtureParser hook', () => {
  it('replays a row whose fixture is a saved probe directory (also one saved at another url); a broken one is an error with its line', async () => {
    const root = testTempDir('replay-check');
    handMade(
      path.join(root, 'probes/kiuc'),
      {
        source: { url: NISC.replace('kiuc', 'elsewhere') },
        requests: [{ url: NISC.replace('kiuc', 'elsewhere'), file: 'summary.json' }],
      },
      { 'summary.json': kiuc() },
    );
    handMade(
      path.join(root, 'probes/broken'),
      { requests: [{ url: NISC, file: 'summary.json' }] },
      { 'summary.json': '{"outages": "none"}' },
    );
    fs.writeFileSync(path.join(root, 'kiuc.json'), kiuc());
    const registry = path.join(root, 'sources.csv');
    fs.writeFileSync(
      registry,
      [
        'id,utility,state,connector,url,interval_min,tier,fixture',
        `kiuc,Kauai Island Utility Cooperative,HI,nisc,${NISC},15,3,probes/kiuc`,
        `broken,Kauai Island Utility Cooperative,HI,nisc,${NISC},15,3,probes/broken`,
        `single,Kauai Island Utility Cooperative,HI,nisc,${NISC},15,3,kiuc.json`, // one document: the JSON parser still reads it
      ].join('\n'),
    );
    const options = { eia: null, fixtureRoot: root, shipped: false };
    const fixtures = (text: string, parseFixture?: Awaited<ReturnType<typeof replayFixtures>>) =>
      checkRegistry(text, { ...options, parseFixture }).problems.filter((p) => p.column === 'fixture');
    const text = fs.readFileSync(registry, 'utf8');
    // Without the hook, check can only say it skipped the directories.
    expect(fixtures(text).map((p) => [p.line, p.severity])).toEqual([
      [2, 'warning'],
      [3, 'warning'],
    ]);
    const problems = fixtures(text, await replayFixtures(registry, options));
    expect(problems.map((p) => [p.line, p.severity])).toEqual([[3, 'error']]);
    expect(problems[0].message).toMatch(
      /^the nisc connector cannot replay probes\/broken: .*probes\/broken: in its answers \(summary\.json\): .*outages/,
    );
  });
});
