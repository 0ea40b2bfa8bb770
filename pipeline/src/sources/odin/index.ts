// ORNL ODIN connector.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
