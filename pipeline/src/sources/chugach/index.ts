// Chugach Electric connector: the outage map's sections (areas) and incidents (points placed in counties).
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
