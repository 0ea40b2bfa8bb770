// SienaTech connector (United Power, Colorado): the outage map's UpdatePushpin XML, one <OMSCASES> row per outage.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
