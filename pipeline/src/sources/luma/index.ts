// LUMA connector (LUMA Energy, Puerto Rico): island totals and the seven operating regions as areas.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
