// The poll loop's heartbeat: after every cycle (idle ones too) one small file in the state directory says when the
// loop last ran, what it found and which generation it left published. /healthz (serve/health.ts) reads it from the
// poller itself or from `outage serve` in another process; it is never part of the published tree.
import fs from 'node:fs';
import path from 'node:path';
import type { CycleSummary } from '../cycle/summary.ts';
import { writeFileAtomic } from '../publish/atomic-write.ts';
import { readManifest } from '../publish/tree-parts.ts';

export const HEARTBEAT_FILE = 'heartbeat.json';

export interface Heartbeat {
  /** the cycle's time (the pipeline clock: `--now` moves it) */
  cycle_at: string;
  /** wall-clock time the cycle finished: what liveness is judged on */
  finished_at: string;
  cycle_ms: number;
  polled: number;
  failed: number;
  sources: number;
  stale_sources: string[];
  /** the live generation published when the cycle finished (null before the first) */
  generation: string | null;
  pid: number;
}

export function writeHeartbeat(stateDir: string, outDir: string, s: CycleSummary, sources: number): Heartbeat {
  const beat: Heartbeat = {
    cycle_at: s.at,
    finished_at: new Date().toISOString(),
    cycle_ms: s.ms,
    polled: s.polled,
    failed: s.failed,
    sources,
    stale_sources: s.staleSources,
    generation: readManifest(outDir)?.generation ?? null,
    pid: process.pid,
  };
  writeFileAtomic(path.join(stateDir, HEARTBEAT_FILE), `${JSON.stringify(beat, null, 2)}\n`);
  return beat;
}

/** The last heartbeat, or null when the loop has not run here (or the file is unreadable: judged as absent). */
export function readHeartbeat(stateDir: string): Heartbeat | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(stateDir, HEARTBEAT_FILE), 'utf8')) as Heartbeat;
  } catch {
    return null;
  }
}
