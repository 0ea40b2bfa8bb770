// Portland General Electric connector (Oregon): the getOutagesByCounty GraphQL answer, customers out per county.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
