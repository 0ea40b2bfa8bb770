// Esri ArcGIS FeatureServer/MapServer query connector.
export { fetch } from './fetch.ts';
export { normalize } from './normalize.ts';
