// Anaheim Public Utilities connector: ActiveIncidents GeoJSON, one point per meter out, grouped by incident ID.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
