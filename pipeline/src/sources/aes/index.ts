// AES connector (AES Indiana, AES Ohio): each utility's outage XML, one marker per outage, told apart by URL path.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
