// A CPU profile of one stretch of a bench (node:inspector's Profiler, this thread only), written as a .cpuprofile
// (open it in Chrome DevTools or speedscope) and summarised: the functions and the files that took the most self time.
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}
export interface ProfileLine {
  name: string;
  self_ms: number;
  share: string;
}

/** Runs `fn` under the profiler; writes the profile to `file` and returns fn's value with the top self times. */
export async function profiled<T>(
  file: string,
  fn: () => Promise<T>,
  top = 12,
): Promise<{ v: T; functions: ProfileLine[]; files: ProfileLine[] }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  try {
    const v = await fn();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    fs.writeFileSync(file, JSON.stringify(profile));
    return { v, ...summarise(profile, top) };
  } finally {
    session.disconnect();
  }
}

/** Self time per function (name, file:line) and per file, from the samples' time deltas. */
export function summarise(profile: Profile, top: number): { functions: ProfileLine[]; files: ProfileLine[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) selfUs.set(samples[i], (selfUs.get(samples[i]) ?? 0) + (deltas[i] ?? 0));
  const total = [...selfUs.values()].reduce((s, n) => s + n, 0) || 1;
  const fns = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const f = byId.get(id)!.callFrame;
    const file = f.url
      ? f.url.replace(/^.*\/(node_modules\/(?:@[^/]+\/)?[^/]+|dist|pipeline|scripts)\//, '$1/')
      : '(native)';
    const name = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
    fns.set(name, (fns.get(name) ?? 0) + us);
    files.set(file, (files.get(file) ?? 0) + us);
  }
  const lines = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, self_ms: Math.round(us / 1000), share: `${((100 * us) / total).toFixed(1)} %` }));
  return { functions: lines(fns), files: lines(files) };
}
