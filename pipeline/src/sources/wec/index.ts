// WEC Energy Group connector (We Energies, Wisconsin Public Service): OutageEventJSON events split into slices.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
