// Clark PUD data.js payload (the JSONP argument) as a point list (pointlist/options.ts): {totalAffectedCustomerCount,
// openOutages[]{key, affectedCustomerCount, estimatedRestoration, lat, lng}}. The key is an outage's identity across
// polls: an outage without one is a misfit.
import { pointSpec } from '../pointlist/options.ts';

export const SPEC = pointSpec({
  what: 'Clark PUD outage data',
  list: 'openOutages',
  count: 'affectedCustomerCount',
  id: 'key',
  id_required: true,
  lat: 'lat',
  lon: 'lng',
  etr: 'estimatedRestoration',
  total: 'totalAffectedCustomerCount',
  noun: 'outage',
});
