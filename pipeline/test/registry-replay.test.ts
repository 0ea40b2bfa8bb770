// The national cycle over the real registry (issue #10): every active row of data/sources.csv served its recorded
// fixture over loopback HTTP, one pipeline cycle, every row ok and every state in the published map.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { replayRegistry } from '../../scripts/bench-registry.ts';
import { hasSharedData } from './shared-data.ts';

const activeRows = (
  parse(fs.readFileSync('data/sources.csv', 'utf8'), { columns: true, comment: '#' }) as Array<Record<string, string>>
).filter((r) => r.status === 'active');

describe.skipIf(!hasSharedData)('the real registry replayed from its fixtures', () => {
  it('polls every active row, fails none, and publishes every state of the registry', async () => {
    const r = await replayRegistry();
    expect(activeRows.length).toBeGreaterThan(200);
    expect(r.rows).toBe(activeRows.length);
    expect(r.failures).toEqual([]);
    expect(r.summary.polled).toBe(activeRows.length);
    expect(r.summary.ok).toBe(activeRows.length);
    expect(r.summary.customersOut).toBeGreaterThan(0);
    const inRegistry = [...new Set(activeRows.flatMap((row) => row.state.split(/[;|]/)))].sort();
    expect(r.registryStates).toEqual(inRegistry);
    for (const st of inRegistry) expect(r.statesPublished).toContain(st);
    expect(r.statesOut.length).toBeGreaterThan(10);
  });
});
