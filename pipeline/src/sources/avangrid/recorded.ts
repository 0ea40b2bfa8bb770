// A recorded CMP file as the connector's fetch returns it (registry/check.ts's rawOf). anniebritton/southport-weather-hub's
// scraper kept `{lastUpdated, totals, southport, lincolnCounty, towns}`: the county answer's top-level totals, the
// town answer's feature properties verbatim. Undone here as far as it can be: the town features get their
// properties back (geometry null: not kept), the county answer its totals and no features (only Lincoln's was kept).
import { isObj } from '../checks.ts';

/** `{county, town}` for a recorded file; a `{county, town}` raw passes as is. */
export function recordedRaw(doc: unknown): unknown {
  if (!isObj(doc) || !Array.isArray(doc.towns) || !isObj(doc.totals)) return doc;
  const { customers, outages, incidents } = doc.totals;
  return {
    county: { type: 'FeatureCollection', lastUpdated: doc.lastUpdated, customers, outages, incidents },
    town: {
      type: 'FeatureCollection',
      features: doc.towns.map((properties) => ({ type: 'Feature', geometry: null, properties })),
    },
  };
}
