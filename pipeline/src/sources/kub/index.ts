// Knoxville Utilities Board connector: electric-outages points placed in Tennessee counties, KUB's own headline totals.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
