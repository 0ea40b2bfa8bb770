// OMAP connector: PPL Electric Utilities and Rhode Island Energy county/municipality tables.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
