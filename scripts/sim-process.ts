// The simulator in its own process (`outage simulate --frozen`, moved by POST /_clock), for the bench and the soak:
// what they measure is the poller's memory and time, not the simulator's response caches.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(fileURLToPath(new URL('../bin/outage.js', import.meta.url)));

export interface SimulatorProcess {
  url: string;
  /** the registry file the simulator wrote (its sources, at `url`) */
  registry: string;
  move(at: Date): Promise<void>;
  stop(): Promise<void>;
}

export interface SimulatorSpec {
  registry: string;
  now: Date;
  simSources: number;
  areas: number;
  seed: number;
  /** customers per simulated incident and the cap per utility and county (the simulator's defaults: 150, 40) */
  incidentSize?: number;
  incidentCap?: number;
  /** the storm's size (the simulator's --storm-scale; default 1) */
  stormScale?: number;
}

export async function startSimulatorProcess(o: SimulatorSpec): Promise<SimulatorProcess> {
  const args = ['simulate', '--frozen', '--now', o.now.toISOString(), '--sources', o.registry];
  args.push('--sim-sources', String(o.simSources), '--areas', String(o.areas), '--seed', String(o.seed));
  if (o.incidentSize) args.push('--incident-size', String(o.incidentSize));
  if (o.incidentCap) args.push('--incident-cap', String(o.incidentCap));
  if (o.stormScale) args.push('--storm-scale', String(o.stormScale));
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) =>
        reject(new Error(`The simulator exited (code ${code}) before it listened: ${stderr.trim()}`)),
      );
    });
    const { url } = JSON.parse(line) as { url: string };
    const move = async (at: Date) => {
      const res = await fetch(`${url}/_clock?at=${at.toISOString()}`, { method: 'POST' });
      if (!res.ok)
        throw new Error(`The simulator refused to move its clock to ${at.toISOString()}: HTTP ${res.status}`);
    };
    return { url, registry: o.registry, move, stop };
  } catch (err) {
    await stop(); // a simulator that printed something else must not outlive the caller
    throw err;
  }
}
