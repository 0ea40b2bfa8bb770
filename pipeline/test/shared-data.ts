// Test helper: the recorded real payloads live in ../shared/data beside the repository (never copied into it).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { SourceDef } from '../src/sources/registry.ts';

export const SHARED_DATA = path.resolve(fileURLToPath(new URL('../../../shared/data', import.meta.url)));
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
