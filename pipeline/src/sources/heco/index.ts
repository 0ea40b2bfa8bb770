// Hawaiian Electric connector (credentialed): the outage map API's point list, one incident per outage.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
