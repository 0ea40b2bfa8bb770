// The simulated storm: a deterministic, seedable hurricane over real counties (us-atlas), driven by the clock.
// A storm centre moves along a track; each county's share out follows the strongest wind it has felt, decaying as
// crews restore. Small background outages happen everywhere. Everything here is labelled SIMULATED downstream.
import { geoDistance } from 'd3-geo';
import { loadAtlas, type County } from '../geo/counties.ts';
import { loadCountyModel } from '../geo/county-model.ts';
import { unit } from './random.ts';

export interface ScenarioOptions {
  seed: number;
  /** start of the storm cycle; the storm repeats every periodHours */
  epoch: Date;
  periodHours: number;
  /**
   * How fast the storm plays from `from` on: `factor` storm hours per hour of the clock (default 1). `outage start`'s
   * demo plays it faster so it visibly moves in its first minutes; timestamps stay the clock's.
   */
  pace?: { factor: number; from: Date };
  /** about how many customers one incident holds (default 150), and at most how many per utility and county (40) */
  incidentSize?: number;
  incidentCap?: number;
  /** the storm's size (default 1): its radius × √scale, so about `scale` times the counties feel it (the bench's 3×) */
  stormScale?: number;
}

const TRACKS: Array<Array<[number, number]>> = [
  [
    [-89.5, 25.5],
    [-90.2, 29.2],
    [-89.9, 32.3],
    [-87.5, 35.5],
    [-83.5, 38.5],
    [-78.5, 41.5],
    [-72.0, 43.5],
  ], // Gulf → Northeast
  [
    [-84.5, 24.0],
    [-82.3, 26.9],
    [-81.2, 29.0],
    [-80.0, 32.5],
    [-77.5, 35.0],
    [-75.0, 38.5],
    [-71.0, 41.8],
  ], // Florida → coast
  [
    [-95.5, 26.5],
    [-95.3, 29.3],
    [-94.5, 31.8],
    [-92.5, 34.5],
    [-89.5, 37.0],
    [-85.5, 40.0],
    [-81.0, 42.5],
  ], // Texas → Ohio
];

const EARTH_KM = 6371;

export interface StormPoint {
  lon: number;
  lat: number;
  /** 0–1: share of customers out at the centre */
  intensity: number;
  radiusKm: number;
}

export class Scenario {
  readonly counties: County[];
  readonly customers: Map<string, number>;
  private readonly track: Array<[number, number]>;
  private readonly interior = new Map<string, [number, number]>();
  private cacheKey = '';
  private cache = new Map<string, number>();

  constructor(readonly options: ScenarioOptions) {
    const atlas = loadAtlas();
    const model = loadCountyModel();
    this.customers = new Map(atlas.counties.map((c) => [c.fips, model.get(c.fips) ?? 500]));
    this.counties = atlas.counties;
    this.track = TRACKS[options.seed % TRACKS.length];
  }

  /** Hours since the current storm cycle began. */
  stormHours(at: Date): number {
    const { epoch, pace } = this.options;
    const h = pace
      ? (pace.from.getTime() - epoch.getTime() + (at.getTime() - pace.from.getTime()) * pace.factor) / 3_600_000
      : (at.getTime() - epoch.getTime()) / 3_600_000;
    const p = this.options.periodHours;
    return ((h % p) + p) % p;
  }

  /** The storm centre at a storm hour: 36 hours along the track, strongest at landfall (hour 10). */
  stormAt(hours: number): StormPoint | null {
    if (hours < 0 || hours > 36) return null;
    const pos = (hours / 36) * (this.track.length - 1);
    const i = Math.min(Math.floor(pos), this.track.length - 2);
    const f = pos - i;
    const [a, b] = [this.track[i], this.track[i + 1]];
    const intensity = hours < 10 ? 0.25 + 0.55 * (hours / 10) : 0.8 * Math.exp(-(hours - 10) / 14);
    const radiusKm = (180 + 4 * hours) * Math.sqrt(this.options.stormScale ?? 1);
    return { lon: a[0] + (b[0] - a[0]) * f, lat: a[1] + (b[1] - a[1]) * f, intensity, radiusKm };
  }

  /** Share of a county's customers out at `at` (0–0.95), deterministic for seed, county and minute. */
  share(fips: string, at: Date): number {
    const key = String(Math.floor(at.getTime() / 60_000));
    if (key !== this.cacheKey) {
      this.cacheKey = key;
      this.cache = new Map();
    }
    const hit = this.cache.get(fips);
    if (hit !== undefined) return hit;
    const c = loadAtlas().byFips.get(fips);
    let s = 0;
    if (c) {
      const now = this.stormHours(at);
      for (let h = Math.max(0, now - 30); h <= now + 1e-9; h += 0.5) {
        const p = this.stormAt(h);
        if (!p) continue;
        const d = geoDistance([p.lon, p.lat], c.centroid) * EARTH_KM;
        const felt = p.intensity * Math.exp(-((d / p.radiusKm) ** 2));
        const restored = Math.exp(-(now - h) / (8 + 10 * unit(this.options.seed, 'crew', fips)));
        s = Math.max(s, felt * restored);
      }
      s *= 0.6 + 0.8 * unit(this.options.seed, 'exposure', fips);
      // background: a few small outages anywhere, changing every 30 minutes
      const bucket = Math.floor(at.getTime() / 1_800_000);
      if (unit(this.options.seed, 'bg', fips, bucket) < 0.04)
        s += 0.0005 + 0.004 * unit(this.options.seed, 'bgsize', fips, bucket);
    }
    s = Math.min(0.95, s);
    this.cache.set(fips, s);
    return s;
  }

  /** A point inside the county polygon (the centroid when it lies inside, otherwise a nearby interior point). */
  interiorPoint(fips: string): [number, number] {
    const hit = this.interior.get(fips);
    if (hit) return hit;
    const c = loadAtlas().byFips.get(fips)!;
    let point: [number, number] = c.centroid;
    const fips2 = loadAtlas().within(point[0], point[1]);
    if (fips2 !== fips) {
      const [w, s, e, n] = c.bbox;
      outer: for (let k = 1; k <= 12; k++) {
        for (let j = 0; j < k * 4; j++) {
          const p: [number, number] = [w + (e - w) * unit(7, fips, k, j, 'x'), s + (n - s) * unit(7, fips, k, j, 'y')];
          if (loadAtlas().within(p[0], p[1]) === fips) {
            point = p;
            break outer;
          }
        }
      }
    }
    this.interior.set(fips, point);
    return point;
  }
}
