// What the probe cases share: a case (a source, its upstream routes, a check), building a source and a reply, and
// the sums the checks compare with.
import fs from 'node:fs';
import type { Snapshot } from '../../src/sources/snapshot.ts';
import type { ConnectorName, SourceDef } from '../../src/sources/source-def.ts';
import { sharedPath, sourceDef } from '../shared-data.ts';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body: Buffer;
}
export interface Case {
  source: SourceDef;
  routes: Record<string, Reply>;
  check: (s: Snapshot) => void;
}

export const file = (rel: string): Buffer => fs.readFileSync(sharedPath(rel));
export const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
export const sum = <T>(xs: T[], f: (x: T) => number): number => xs.reduce((n, x) => n + f(x), 0);
export const countyOut = (s: Snapshot) => sum(s.counties, (c) => c.customers_out);
export const keyOf = (method: string, url: string) =>
  `${method} ${new URL(url, 'http://x').pathname}${new URL(url, 'http://x').search}`;

export const src = (connector: ConnectorName, states: string[], url: string, options: Record<string, unknown> = {}) =>
  sourceDef({ id: `${connector}-test`, utility: `${connector} test`, connector, states, url, options });
export const ok = (body: Buffer, headers: Record<string, string> = {}): Reply => ({ body, headers });
