// Milsoft/DataVoice mobile service connector (OMSMobileService.asmx, XML): counties with served counts, and outages
// placed in counties by their point.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
