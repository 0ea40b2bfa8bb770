// Idaho Power connector: GetCurrentOutageInformation outage points placed by county, totalCustomersAffected as total.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
