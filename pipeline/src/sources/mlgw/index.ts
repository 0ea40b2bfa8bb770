// Memphis Light, Gas & Water connector: geojson.php outage features placed by county, their customers summed.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
