// Avangrid connector (credentialed): an opco's outagedata API (CMP), towns as areas, streets as incidents, counties.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
