// DataCapable/UtiliSocial connector: outage events with points (or a county property), county counts on request.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
