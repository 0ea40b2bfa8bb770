// Tampa Electric (TECO) connector: the outage map's Elasticsearch tile query, one hit per incident.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
