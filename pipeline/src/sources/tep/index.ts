// TEP connector (Tucson Electric Power, UNS Electric): one shared mapfeed, outage points of the row's division.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
