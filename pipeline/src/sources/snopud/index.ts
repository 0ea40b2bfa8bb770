// Snohomish County PUD connector: the outage map's KML outage areas, one incident per area at its polygon's centre.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
