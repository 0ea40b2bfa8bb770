// Clark Public Utilities connector (Clark County, WA): the outage map's JSONP data file, each open outage an incident.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
