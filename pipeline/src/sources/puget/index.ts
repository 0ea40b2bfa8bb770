// Puget Sound Energy connector: the outage map's PseMap points, placed by county, with PSE's unplanned summary.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
