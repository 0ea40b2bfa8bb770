import { describe, expect, it } from 'vitest';
import { Scenario } from './scenario.ts';

const epoch = new Date('2026-09-01T00:00:00Z');
const at = (h: number) => new Date(epoch.getTime() + h * 3_600_000);

describe("the storm's pace", () => {
  it('plays `factor` storm hours per clock hour from its start, and in real time without one', () => {
    const real = new Scenario({ seed: 1, epoch, periodHours: 48 });
    const fast = new Scenario({ seed: 1, epoch, periodHours: 48, pace: { factor: 12, from: at(8) } });
    expect(real.stormHours(at(8.5))).toBeCloseTo(8.5);
    expect(fast.stormHours(at(8))).toBeCloseTo(8);
    expect(fast.stormHours(at(8.25))).toBeCloseTo(11); // a quarter hour on: three storm hours
    expect(fast.stormHours(at(12))).toBeCloseTo((8 + 48) % 48); // four hours: the whole 48-hour storm, again
  });
});
