// ORNL ODIN connector (national baseline, meters).
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
