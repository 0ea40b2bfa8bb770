// The real CLI under fuzz: `outage poll --once` (spawned asynchronously: the upstreams answer from this process's
// event loop) against several mutated fixtures at once beside the neighbour; then the published plain-file tree is read
// back and checked like the in-process runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HTTP } from '../../src/sources/http.ts';
import { makeTempDir, removeTempDir } from '../clean-machine.ts';
import type { Fixture } from './fixtures.ts';
import type { Mutation } from './mutations.ts';
import { FuzzUpstream } from './upstream.ts';
import { absurdValues, csvProblems, feedProblems, type Absurd } from './absurd.ts';
import { NEIGHBOUR, neighbourRoute, registryCsv, type MapData, type SourcesData } from './registry.ts';
import { HANG_MS } from './harness.ts';

const BIN = fileURLToPath(new URL('../../../bin/outage.js', import.meta.url));
const NEIGHBOUR_COUNT = 4_321;
/** Deadlines of the CLI runs: short, so a stalled source costs seconds, yet far above a loopback answer's time. */
export const CLI_DEADLINES = { OUTAGE_REQUEST_DEADLINE_MS: '4000', OUTAGE_SOURCE_DEADLINE_MS: '8000' };

export interface CliCase {
  fixture: Fixture;
  mutation: Mutation | null;
}

export interface CliOutcome {
  status: number | null;
  hung: boolean;
  ms: number;
  stderr: string;
  neighbour: string | null;
  absurd: Absurd[];
}

export async function cliRun(cases: CliCase[]): Promise<CliOutcome> {
  const dir = makeTempDir('fuzz-cli');
  const upstreams: FuzzUpstream[] = [];
  try {
    const served = [];
    for (const c of cases) {
      const u = await new FuzzUpstream(c.fixture.routes, DEFAULT_HTTP.maxBytes).start();
      u.mutation = c.mutation;
      upstreams.push(u);
      served.push({ fixture: c.fixture, base: u.base });
    }
    const neighbour = await new FuzzUpstream([neighbourRoute(() => NEIGHBOUR_COUNT)], DEFAULT_HTTP.maxBytes).start();
    upstreams.push(neighbour);
    const registry = path.join(dir, 'sources.csv');
    fs.writeFileSync(registry, registryCsv(served, neighbour.base));
    const out = path.join(dir, 'public');
    const t0 = Date.now();
    const run = await spawnCli([
      'poll',
      '--once',
      '--no-deliveries',
      '--sources',
      registry,
      '--state',
      path.join(dir, 'state'),
      '--out',
      out,
    ]);
    const ms = Date.now() - t0;
    const live = path.join(out, 'api', 'v1', 'live');
    if (run.status !== 0 || !fs.existsSync(live))
      return { ...run, ms, neighbour: 'the cycle did not complete', absurd: [] };
    return { ...run, ms, neighbour: neighbourProblem(live), absurd: publishedAbsurd(out) };
  } finally {
    for (const u of upstreams) await u.stop();
    removeTempDir(dir);
  }
}

function spawnCli(args: string[]): Promise<{ status: number | null; hung: boolean; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...CLI_DEADLINES },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let hung = false;
    child.stderr.on('data', (d) => (stderr += d));
    const killer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HANG_MS);
    child.on('exit', (status) => {
      clearTimeout(killer);
      resolve({ status, hung, stderr });
    });
  });
}

/** The `data` of a published document, as the caller expects it to be. */
const data = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')).data;

function neighbourProblem(live: string): string | null {
  const map = data<MapData>(path.join(live, 'map.json'))[NEIGHBOUR.fips]?.[0];
  const src = data<SourcesData>(path.join(live, 'sources.json')).sources.find((s) => s.id === NEIGHBOUR.id);
  if (map !== NEIGHBOUR_COUNT) return `live/map.json ${NEIGHBOUR.fips} shows ${String(map)}, not ${NEIGHBOUR_COUNT}`;
  if (src?.customers_out !== NEIGHBOUR_COUNT || src.last_error !== null)
    return `live/sources.json neighbour shows ${JSON.stringify(src)}`;
  return null;
}

/** Absurd values in every live JSON document of the published plain-file tree; feeds and CSV files anywhere in it. */
function publishedAbsurd(out: string): Absurd[] {
  const found: Absurd[] = [];
  const check = (p: string): void => {
    const rel = path.relative(out, p).split(path.sep).join('/');
    const text = () => fs.readFileSync(p, 'utf8');
    if (/\.(rss|atom)$/.test(p)) found.push(...feedProblems(rel, text()));
    else if (p.endsWith('.csv')) found.push(...csvProblems(rel, text()));
    else if (p.endsWith('.json') && rel.startsWith('api/v1/live/'))
      found.push(...absurdValues(rel, JSON.parse(text())));
  };
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else check(path.join(d, e.name));
    }
  };
  walk(path.join(out, 'api', 'v1'));
  return found;
}
