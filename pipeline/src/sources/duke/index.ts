// Duke Energy connector (credentialed): the outage-maps counties list of one jurisdiction, customers out and served per county.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
