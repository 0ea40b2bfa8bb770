// Kill trials (issue 16, part 4): the real `outage poll --once --all` against the simulator, SIGKILLed at spread moments
// of polling, storing, publishing and the mirror sync. After each kill the manifest-served tree is one complete
// generation, the plain-file mirror is one once repaired (publish/mirror.ts), and the next `poll --once` recovers with
// the state database intact. `npm test` runs 8 trials; KILL_TRIALS=50 runs the full set (KILL_SEED reseeds it) and
// prints the table. Kill moments are drawn (seeded) inside each phase's window as measured on an unkilled cycle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import Parser from 'rss-parser';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { unit } from '../src/simulator/random.ts';
import { Db } from '../src/state/db.ts';
import { putJson } from '../src/publish/formats.ts';
import { FsTreeWriter } from '../src/publish/tree-writer.ts';
import { objectPath, objectsRoot, readManifest } from '../src/publish/tree-parts.ts';
import { manifestGeneration, mirrorInSync, repairMirror } from '../src/publish/mirror.ts';
import { makeTempDir, removeTempDir } from './clean-machine.ts';

const BIN = fileURLToPath(new URL('../../bin/outage.js', import.meta.url));
const TRIALS = Number(process.env.KILL_TRIALS ?? 8);
const SEED = Number(process.env.KILL_SEED ?? 16);
const T0 = Date.parse('2026-09-01T06:00:00Z');
const STEP_MS = 30 * 60_000; // each cycle half an hour on: the storm has moved, so a publish rewrites ~1,100 of ~8,000 files
const TARGETS = ['polling', 'storing', 'publishing', 'mirror'] as const;
type Phase = 'startup' | (typeof TARGETS)[number] | 'after sync' | 'not killed';

// The checks below are written independently of the code under test: their own hash, walk and "internal" rule.
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 32);
const mirrored = (rel: string) => !rel.split('/').some((seg) => seg.startsWith('_'));
function walk(root: string, rel = '', out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, r, out);
    else out.push(r);
  }
  return out;
}

/** rel → object name of every file the current manifests publish in the mirror (live wins a path both list). */
function expectedMirror(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of ['history', 'live'] as const)
    for (const [rel, e] of Object.entries(readManifest(out, part)?.files ?? {}))
      if (mirrored(rel)) files.set(rel, e.object);
  return files;
}

// Precompressed siblings (`x.json.br`, `x.json.gz`) of the files whose manifest entry lists them: checked by decoding.
const SIBLINGS = { br: '.br', gzip: '.gz' } as const;
const decode = (file: string) =>
  file.endsWith('.br') ? zlib.brotliDecompressSync(fs.readFileSync(file)) : zlib.gunzipSync(fs.readFileSync(file));

/** `rel.br` / `rel.gz` → the object its bytes must decode to, for every mirrored file that has siblings. */
function expectedSiblings(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const part of ['history', 'live'] as const)
    for (const [rel, e] of Object.entries(readManifest(out, part)?.files ?? {})) {
      if (!mirrored(rel)) continue;
      for (const [coding, suffix] of Object.entries(SIBLINGS))
        if (e.encodings?.[coding as keyof typeof SIBLINGS] !== undefined) files.set(rel + suffix, e.object);
        else files.delete(rel + suffix);
    }
  return files;
}

interface Mix {
  wrong: number;
  missing: number;
  extra: number;
  temps: number;
}
const mixed = (m: Mix) => m.wrong + m.missing + m.extra + m.temps > 0;

/** How far the mirror is from the current manifests, and temporary files anywhere under the output directory. */
function inspectMirror(out: string): Mix {
  const expected = expectedMirror(out);
  const siblings = expectedSiblings(out);
  expect(expected.size).toBeGreaterThan(0);
  const mix: Mix = { wrong: 0, missing: 0, extra: 0, temps: 0 };
  for (const [rel, object] of expected) {
    if (!fs.existsSync(path.join(out, rel))) mix.missing += 1;
    else if (sha(fs.readFileSync(path.join(out, rel))) !== object) mix.wrong += 1;
  }
  for (const [rel, object] of siblings) {
    if (!fs.existsSync(path.join(out, rel))) mix.missing += 1;
    else if (sha(decode(path.join(out, rel))) !== object) mix.wrong += 1;
  }
  for (const rel of walk(out)) {
    if (rel.endsWith('.tmp')) mix.temps += 1;
    else if (
      !rel.startsWith('.') &&
      (rel.includes('/') || /\.(br|gz)$/.test(rel)) &&
      !expected.has(rel) &&
      !siblings.has(rel)
    )
      mix.extra += 1;
  }
  return mix;
}

/** The manifest-served tree: every listed object on disk with the bytes its name promises, and its siblings too. */
function servedProblems(out: string): number {
  let bad = 0;
  for (const part of ['live', 'history'] as const) {
    for (const e of Object.values(readManifest(out, part)?.files ?? {})) {
      const file = objectPath(out, e.object, part);
      if (!fs.existsSync(file) || sha(fs.readFileSync(file)) !== e.object) bad += 1;
      for (const [coding, suffix] of Object.entries(SIBLINGS))
        if (e.encodings?.[coding as keyof typeof SIBLINGS] !== undefined)
          if (!fs.existsSync(file + suffix) || sha(decode(file + suffix)) !== e.object) bad += 1;
    }
  }
  return bad;
}

/** live/map and live/summary of one generation agree on national and state totals. */
function expectAgreement(read: (rel: string) => string): void {
  const map = JSON.parse(read('api/v1/live/map.json')).data as Record<
    string,
    [number, number | null, number, number, number]
  >;
  const summary = JSON.parse(read('api/v1/live/summary.json')).data as {
    national: { customers_out: number; counties_out: number };
    states: Array<{ state: string; fips: string; customers_out: number; pct_out: number | null; counties_out: number }>;
  };
  expect(summary.states.length).toBeGreaterThan(50);
  expect(summary.states.reduce((n, s) => n + s.customers_out, 0)).toBe(summary.national.customers_out);
  expect(Object.keys(map).filter((k) => k.length === 5).length).toBe(summary.national.counties_out);
  for (const s of summary.states) {
    const counties = Object.entries(map).filter(([k]) => k.length === 5 && k.startsWith(s.fips));
    expect([map[s.state]?.[0], map[s.state]?.[1], counties.reduce((n, [, v]) => n + v[0], 0), counties.length]).toEqual(
      [s.customers_out, s.pct_out, s.customers_out, s.counties_out],
    );
  }
}

const rss = new Parser();
/** Parses every mirrored file as its format; returns how many. */
async function parseMirror(out: string): Promise<number> {
  let n = 0;
  for (const rel of expectedMirror(out).keys()) {
    const text = fs.readFileSync(path.join(out, rel), 'utf8');
    const ext = path.extname(rel);
    if (ext === '.json' || ext === '.geojson') JSON.parse(text);
    else if (ext === '.csv') parseCsv(text);
    else if (ext === '.atom' || ext === '.rss') await rss.parseString(text);
    else if (ext === '.txt') expect(text.trim().length).toBeGreaterThan(0);
    else throw new Error(`No parser for ${rel}: add its format to the kill trials.`);
    n += 1;
  }
  return n;
}

let dir = '';
let sim: Simulator | undefined;
const clock = manualClock(new Date(T0));
const children = new Set<ChildProcess>();
const paths = () => ({
  registry: path.join(dir, 'sources.csv'),
  state: path.join(dir, 'state'),
  out: path.join(dir, 'public'),
});
const ino = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.ino ?? 0;
const countObjects = (out: string) => (fs.existsSync(objectsRoot(out)) ? walk(objectsRoot(out)).length : 0);

/** Moments of a cycle as the test sees them: simulator requests, new objects, the manifest switch, the sync marker. */
interface Moments {
  firstRequest?: number;
  lastRequest?: number;
  firstObject?: number;
  switched?: number;
  synced?: number;
}
type Anchor = 'request' | 'requests done' | 'object' | 'switch';
interface Plan {
  anchor: Anchor;
  delayMs: number;
}
interface Run {
  code: number | null;
  killed: boolean;
  stderr: string;
  requests: number;
  at: Moments;
}

/** Calls `onNew` when a file appears in the object store (a publish writing its first object). */
function watchObjects(out: string, onNew: () => void): () => void {
  const root = objectsRoot(out);
  const watchers = fs.existsSync(root) ? fs.readdirSync(root).map((d) => fs.watch(path.join(root, d), onNew)) : [];
  return () => {
    for (const w of watchers) w.close();
  };
}

/** `poll --once --all` at `at`; with a plan, SIGKILLed `delayMs` after its anchor (watched every 2 ms). */
async function runPoll(at: number, plan?: Plan, requestsDone = Infinity): Promise<Run> {
  const { registry, state, out } = paths();
  clock.set(new Date(at));
  const r0 = sim!.requests;
  const manifestIno = ino(path.join(out, '.manifest.json'));
  const markerIno = ino(path.join(out, '.mirror.json'));
  const t0 = performance.now();
  const times: Moments = {};
  const unwatch = watchObjects(out, () => (times.firstObject ??= performance.now() - t0));
  const child = spawn(
    process.execPath,
    [
      BIN,
      'poll',
      '--once',
      '--all',
      '--no-deliveries',
      '--sources',
      registry,
      '--state',
      state,
      '--out',
      out,
      '--now',
      new Date(at).toISOString(),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let seen = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = setInterval(() => {
    const now = performance.now() - t0;
    const n = sim!.requests - r0;
    if (n > seen) [seen, times.firstRequest, times.lastRequest] = [n, times.firstRequest ?? now, now];
    if (times.switched === undefined && ino(path.join(out, '.manifest.json')) !== manifestIno) times.switched = now;
    if (times.synced === undefined && ino(path.join(out, '.mirror.json')) !== markerIno) times.synced = now;
    const fired: Record<Anchor, boolean> = {
      request: n > 0,
      'requests done': n >= requestsDone,
      object: times.firstObject !== undefined,
      switch: times.switched !== undefined,
    };
    if (plan && fired[plan.anchor] && !timer) timer = setTimeout(() => child.kill('SIGKILL'), plan.delayMs);
  }, 2);
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    child.once('exit', (c, s) => resolve([c, s])),
  );
  clearInterval(tick);
  clearTimeout(timer);
  unwatch();
  children.delete(child);
  return { code, killed: signal === 'SIGKILL', stderr, requests: sim!.requests - r0, at: times };
}

beforeAll(async () => {
  dir = makeTempDir('kill-trials');
  sim = new Simulator({ clock, seed: 1, areasPerCounty: 2 });
  await sim.start();
  // Florida and Georgia without their Kubra sources (7 sources, so polling takes seconds under the polite default of
  // 5 requests a second per host: every simulated source shares 127.0.0.1), and one page per ArcGIS source, so every
  // cycle makes the same number of requests (the end of polling is recognised by that count).
  const rows = sim.utilities
    .filter((u) => ['FL', 'GA'].includes(u.state) && u.connector !== 'kubra')
    .map((u) =>
      [
        u.id,
        `"${u.name}"`,
        u.state,
        u.connector,
        sim!.urlFor(u),
        u.interval_min,
        u.tier,
        u.connector === 'arcgis' ? '"{""mode"":""incidents"",""page_size"":1000}"' : '',
        '',
      ].join(','),
    );
  fs.writeFileSync(
    paths().registry,
    `id,utility,state,connector,url,interval_min,tier,options,customers\n${rows.join('\n')}\n`,
  );
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await sim?.stop();
  removeTempDir(dir);
});

describe('the mirror is repaired before it is shipped', () => {
  it('`outage export` repairs what a kill during a mirror sync leaves; a mirror in sync is trusted without a walk', async () => {
    const out = path.join(dir, 'unit-public');
    const publish = (at: string, files: Record<string, Record<string, unknown>>) => {
      const w = new FsTreeWriter(out, new Date(at));
      for (const [f, d] of Object.entries(files)) putJson(w, f, d);
      return w.commit({ simulated: true, notice: 'SIMULATED' });
    };
    await publish('2026-01-01T00:00:00Z', {
      'api/v1/live/a.json': { n: 1 },
      'api/v1/live/b.json': { n: 1 },
      'api/v1/counties/01001/index.json': { n: 1 },
    });
    const genA = { generation: manifestGeneration(out, 'live'), files: readManifest(out)!.files };
    await publish('2026-01-01T00:10:00Z', {
      'api/v1/live/a.json': { n: 1 },
      'api/v1/live/b.json': { n: 2 },
      'api/v1/live/c.json': { n: 2 },
    });
    expect(inspectMirror(out)).toEqual({ wrong: 0, missing: 0, extra: 0, temps: 0 });
    // What a kill halfway through the second sync leaves: b of the first generation, c not yet linked, the removed
    // county still there, temporary files beside the mirror, the manifest and an object; the marker of the first.
    const file = (rel: string) => path.join(out, rel);
    fs.rmSync(file('api/v1/live/b.json'));
    fs.linkSync(objectPath(out, genA.files['api/v1/live/b.json'].object), file('api/v1/live/b.json'));
    fs.rmSync(file('api/v1/live/c.json'));
    fs.mkdirSync(file('api/v1/counties/01001'), { recursive: true });
    fs.copyFileSync(
      objectPath(out, genA.files['api/v1/counties/01001/index.json'].object),
      file('api/v1/counties/01001/index.json'),
    );
    const torn = `${objectPath(out, genA.files['api/v1/live/a.json'].object)}.999.3.tmp`;
    for (const t of [file('api/v1/live/a.json.999.1.tmp'), file('.manifest.json.999.2.tmp'), torn])
      fs.writeFileSync(t, '');
    fs.writeFileSync(
      file('.mirror.json'),
      JSON.stringify({ version: 2, generations: { live: genA.generation, history: null } }),
    );
    expect(inspectMirror(out)).toEqual({ wrong: 1, missing: 1, extra: 1, temps: 3 });
    // ...and the lock of the killed process (a pid that no longer runs) must not hold anyone up.
    fs.writeFileSync(file('.mirror.lock'), String(spawnSync(process.execPath, ['-e', '']).pid));
    const to = path.join(dir, 'unit-export');
    const r = spawnSync(process.execPath, [BIN, 'export', '--out', out, '--to', to], {
      encoding: 'utf8',
      timeout: 55_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/mirror repaired: 1 relinked, 1 restored, 1 extra and 3 temporary files removed/);
    expect(inspectMirror(out)).toEqual({ wrong: 0, missing: 0, extra: 0, temps: 0 });
    expect([fs.existsSync(file('.mirror.lock')), fs.existsSync(file('api/v1/counties'))]).toEqual([false, false]);
    expect(JSON.parse(fs.readFileSync(path.join(to, 'api/v1/live/b.json'), 'utf8')).data.n).toBe(2);
    // In sync, the marker is trusted: nothing is walked. `verify` walks anyway (a file deleted by hand comes back).
    expect(await repairMirror(out)).toMatchObject({ verified: false, relinked: 0, missing: 0 });
    fs.rmSync(file('api/v1/live/a.json'));
    expect(await repairMirror(out, { verify: true })).toMatchObject({ verified: true, missing: 1 });
    expect(inspectMirror(out)).toEqual({ wrong: 0, missing: 0, extra: 0, temps: 0 });
  });
});

describe('kill trials: poll --once SIGKILLed at spread moments', () => {
  it(
    `leaves one complete generation after repair, and the next cycle recovers (${TRIALS} trials)`,
    async () => {
      const { state, out } = paths();
      const base = await runPoll(T0);
      expect(base.code, base.stderr).toBe(0);
      // The reference: an unkilled cycle of the same shape as the trials' (half an hour on from a published tree).
      const ref = await runPoll(T0 + STEP_MS);
      expect(ref.code, ref.stderr).toBe(0);
      expect(ref.requests, 'requests a cycle makes (the storing anchor)').toBe(base.requests);
      const m = ref.at as Required<Moments>;
      expect(
        [
          m.firstRequest < m.lastRequest,
          m.lastRequest < m.firstObject,
          m.firstObject < m.switched,
          m.switched < m.synced,
        ],
        JSON.stringify(m),
      ).toEqual([true, true, true, true]);
      // Each phase's window on the reference cycle, entered from the event that opens it (so a slower trial still kills
      // in the phase aimed at), at a seeded point of its first 90 %.
      const plans: Record<(typeof TARGETS)[number], (u: number) => Plan> = {
        polling: (u) => ({ anchor: 'request', delayMs: 0.9 * u * (m.lastRequest - m.firstRequest) }),
        storing: (u) => ({ anchor: 'requests done', delayMs: 0.9 * u * (m.firstObject - m.lastRequest) }),
        publishing: (u) => ({ anchor: 'object', delayMs: 0.9 * u * (m.switched - m.firstObject) }),
        mirror: (u) => ({ anchor: 'switch', delayMs: 0.9 * u * (m.synced - m.switched) }),
      };
      const table = new Map<Phase, { kills: number; mixedBefore: number; mixedAfter: number }>();
      const worst: Mix = { wrong: 0, missing: 0, extra: 0, temps: 0 };
      try {
        for (let i = 0; i < TRIALS; i++) {
          const at = T0 + (i + 2) * STEP_MS;
          const before = { generation: manifestGeneration(out, 'live'), objects: countObjects(out) };
          const run = await runPoll(at, plans[TARGETS[i % TARGETS.length]](unit(SEED, 'kill', i)), ref.requests);
          const generation = manifestGeneration(out, 'live');
          const phase: Phase = !run.killed
            ? 'not killed'
            : generation !== before.generation
              ? mirrorInSync(out)
                ? 'after sync'
                : 'mirror'
              : countObjects(out) > before.objects
                ? 'publishing'
                : run.requests >= ref.requests
                  ? 'storing'
                  : run.requests > 0
                    ? 'polling'
                    : 'startup';
          // The served tree never mixes: a kill leaves the previous generation or the new one, whole.
          expect(servedProblems(out), `trial ${i} (${phase})`).toBe(0);
          expectAgreement((rel) => fs.readFileSync(objectPath(out, readManifest(out)!.files[rel].object), 'utf8'));
          const mixBefore = inspectMirror(out);
          for (const k of Object.keys(worst) as Array<keyof Mix>) worst[k] = Math.max(worst[k], mixBefore[k]);
          // Repaired by whoever comes first: here `repairMirror` (as `outage export` and an upload call it), or else
          // the next cycle's publish, which repairs before it links its own changes.
          if (i % 2 === 0) {
            await repairMirror(out);
            expect(inspectMirror(out), `trial ${i} (${phase}) repaired`).toEqual({
              wrong: 0,
              missing: 0,
              extra: 0,
              temps: 0,
            });
          }
          const recovery = await runPoll(at);
          const mixAfter = inspectMirror(out);
          const row = table.get(phase) ?? { kills: 0, mixedBefore: 0, mixedAfter: 0 };
          table.set(phase, {
            kills: row.kills + 1,
            mixedBefore: row.mixedBefore + Number(mixed(mixBefore)),
            mixedAfter: row.mixedAfter + Number(mixed(mixAfter)),
          });
          expect(recovery.code, `trial ${i} (${phase}): ${recovery.stderr}`).toBe(0);
          expect(mixAfter, `trial ${i} (${phase})`).toEqual({ wrong: 0, missing: 0, extra: 0, temps: 0 });
          expect(fs.existsSync(path.join(out, '.mirror.lock'))).toBe(false);
          expect(servedProblems(out)).toBe(0);
          expectAgreement((rel) => fs.readFileSync(path.join(out, rel), 'utf8'));
          if (i % 4 === 0 || i === TRIALS - 1) expect(await parseMirror(out)).toBe(expectedMirror(out).size);
          const db = await Db.open(state);
          try {
            const [{ n }] = await db.all<{ n: number }>('SELECT count(*)::INT AS n FROM events');
            expect(n).toBeGreaterThan(0); // the first cycle opened outages in both states
          } finally {
            db.close();
          }
        }
      } finally {
        const rows = [...table].map(
          ([phase, r]) =>
            `${phase.padEnd(12)}${String(r.kills).padStart(6)}${String(r.mixedBefore).padStart(16)}${String(r.mixedAfter).padStart(15)}`,
        );
        const ms = (a?: number, b?: number) => Math.round((b ?? 0) - (a ?? 0));
        console.log(
          `kill trials: ${TRIALS} (seed ${SEED}); reference cycle: polling ${ms(m.firstRequest, m.lastRequest)} ms, storing ${ms(m.lastRequest, m.firstObject)} ms, ` +
            `publishing ${ms(m.firstObject, m.switched)} ms, mirror sync ${ms(m.switched, m.synced)} ms\n` +
            `${'phase'.padEnd(12)}${'kills'.padStart(6)}${'mixed before'.padStart(16)}${'mixed after'.padStart(15)}\n${rows.join('\n')}\n` +
            `largest mix before repair: ${worst.wrong} wrong-generation, ${worst.missing} missing, ${worst.extra} extra, ${worst.temps} temporary files`,
        );
      }
      // The kills spread over the cycle, and some caught a mirror sync halfway (else the trials would prove nothing).
      if (TRIALS < TARGETS.length) return;
      expect(TARGETS.filter((t) => table.has(t)).length, 'phases killed in').toBeGreaterThanOrEqual(3);
      expect(table.get('mirror')?.mixedBefore ?? 0, 'kills that left a mixed mirror').toBeGreaterThan(0);
    },
    120_000 + TRIALS * 60_000,
  );
});
