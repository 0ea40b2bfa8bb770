// A recorded mobile-service file (a GetAllCounties or a GetAllOutages answer) as fetch returns it: the file's text in
// its place of `{counties, outages}`, by its root element. For registry fixtures, benches and tests.
import type { MilsoftMobileRaw } from './schema.ts';

export const recordedRaw = (text: string): MilsoftMobileRaw =>
  /<MobileOutageInfo[\s>/]/.test(text) ? { counties: null, outages: text } : { counties: text, outages: null };
