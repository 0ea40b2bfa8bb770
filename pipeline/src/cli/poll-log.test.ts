import { describe, expect, it } from 'vitest';
import { failureSummary, FAILURES_LISTED } from './poll-log.ts';

const fail = (source: string, reason: string, message: string) => ({ source, reason, message });

describe('failed polls in the log', () => {
  it('counts many failures by reason in one line, the commonest first, with an example of each', () => {
    const failures = [
      ...Array.from({ length: 9 }, (_, i) => fail(`co-op-${i}`, 'dns', `getaddrinfo ENOTFOUND host${i}.example`)),
      fail('duke', 'timeout', 'no answer in 30 s'),
      fail('aep', 'timeout', 'no answer in 30 s'),
    ];
    expect(failures.length).toBeGreaterThan(FAILURES_LISTED);
    const line = failureSummary(failures, 270);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toBe(
      "  11 of 270 polls failed: dns 9 (e.g. co-op-0: getaddrinfo ENOTFOUND host0.example); timeout 2 (e.g. duke: no answer in 30 s). Every source's reason: /api/v1/live/sources",
    );
  });
});
