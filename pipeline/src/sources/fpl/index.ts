// Florida Power & Light county JSON connector.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
