// SMUD connector (Sacramento Municipal Utility District): the outage map's community list, communities as areas.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
