// Injectable time. Every time-based rule reads a Clock, never Date.now() directly.
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function parseInstant(iso: string): Date {
  const t = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(t))
    throw new Error(`Expected an ISO-8601 instant such as 2026-09-28T18:00:00Z, got \`${iso}\``);
  return new Date(t);
}

/** A clock frozen at `at` (for `--once --now`). */
export const fixedClock =
  (at: Date): Clock =>
  () =>
    new Date(at.getTime());

/** A clock that starts at `start` and runs `speed` times faster than real time. */
export function runningClock(start: Date, speed = 1, real: () => number = Date.now): Clock {
  const t0 = real();
  return () => new Date(start.getTime() + (real() - t0) * speed);
}

/** A clock tests move by hand. */
export function manualClock(start: Date): Clock & { set(d: Date): void; advance(ms: number): void } {
  let now = start.getTime();
  const clock = (() => new Date(now)) as Clock & { set(d: Date): void; advance(ms: number): void };
  clock.set = (d) => {
    now = d.getTime();
  };
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}
