// NorthWestern Energy connector (MT, SD, NE): the outage map's `{d: "<JSON text>"}` answer, outage points by county.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
