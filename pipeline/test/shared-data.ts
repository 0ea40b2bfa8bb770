// Test helper: the recorded real payloads live in ../shared/data beside the repository (never copied into it).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { SourceDef } from '../src/sources/source-def.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The variable that puts the data elsewhere; a relative path is from the repository root, as in scripts/build-*.ts. */
export const SHARED_DATA_ENV = 'OUTAGE_SHARED_DATA';

/** The one place that decides where the recorded payloads are: $OUTAGE_SHARED_DATA, else ../shared/data. */
export function sharedDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(ROOT, env[SHARED_DATA_ENV] || '../shared/data');
}

export const SHARED_DATA = sharedDataDir();
/** Tests that need the payloads skip without them: `describe.skipIf(!hasSharedData)` (see shared-data-gate.ts). */
export const hasSharedData = existsSync(SHARED_DATA);

export function sharedPath(rel: string): string {
  return path.join(SHARED_DATA, rel);
}

export function sharedJson(rel: string): unknown {
  return JSON.parse(readFileSync(sharedPath(rel), 'utf8'));
}

export function sourceDef(over: Partial<SourceDef> = {}): SourceDef {
  return {
    id: 'test',
    utility: 'Test Utility',
    states: ['FL'],
    connector: 'fpl',
    url: 'http://127.0.0.1/x',
    interval_min: 10,
    tier: 2,
    options: {},
    customers: null,
    eia_ids: [],
    ...over,
  };
}
