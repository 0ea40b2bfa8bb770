// Deterministic pseudo-random numbers for the simulator: the same seed and inputs always give the same storm.

/** 32-bit FNV-1a hash of a string. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A uniform number in [0, 1) determined by the seed and the parts. */
export function unit(seed: number, ...parts: Array<string | number>): number {
  let x = hash32(`${seed}|${parts.join('|')}`);
  // mulberry32 finaliser
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
