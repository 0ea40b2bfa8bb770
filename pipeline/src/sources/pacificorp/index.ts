// PacifiCorp connector (Pacific Power, Rocky Mountain Power): per-state map and county list files.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
