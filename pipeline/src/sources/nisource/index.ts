// NiSource connector (NIPSCO, Indiana): the GetPowerOutages list of outage points, placed in counties by point.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
