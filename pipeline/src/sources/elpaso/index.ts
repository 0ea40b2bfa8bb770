// El Paso Electric connector (credentialed): customers out per ZIP code, placed in counties by the outage points.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
