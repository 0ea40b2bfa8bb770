// Green Mountain Power connector: the outage map's town list, towns as areas placed in Vermont counties by name.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
