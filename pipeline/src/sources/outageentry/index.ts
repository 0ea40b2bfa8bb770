// DataVoice/CFA OutageEntry connector: device markers with points, placed in counties.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
