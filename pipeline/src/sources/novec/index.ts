// NOVEC connector (Northern Virginia Electric Cooperative): the storm center's outage XML, one element per outage.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
