// Point-list connector: any utility whose JSON answer lists its outages with a count and a point or county, described by
// the registry row's options (README), so the next such utility is a row, not a folder.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
