// Idaho Power GetCurrentOutageInformation answer as a point list (pointlist/options.ts): `{object: {totalCustomersAffected,
// outages[]}}`, one point per outage (omsCustomerCount, latitude/longitude as numbers or text, omsFeederName,
// omsEstimatedOutageRestorationDate, outageCity[]). omsOutageId, isPlannedOutage, probableCause and
// omsStatusDescription are named by other public clients of this API (README) and read only when present.
import { pointSpec } from '../pointlist/options.ts';

export const SPEC = pointSpec({
  what: 'Idaho Power GetCurrentOutageInformation answer',
  list: 'object.outages',
  count: 'omsCustomerCount',
  id: 'omsOutageId',
  id_parts: ['omsFeederName'],
  lat: 'latitude',
  lon: 'longitude',
  text_coordinates: true,
  etr: 'omsEstimatedOutageRestorationDate',
  city: 'outageCity.0.outageCityName',
  cause: 'probableCause',
  crew_status: 'omsStatusDescription',
  planned: 'isPlannedOutage',
  total: 'object.totalCustomersAffected',
  // Idaho Power's OMS runs in Boise; most of its Oregon customers (Malheur County) keep Mountain time too.
  time_zone: 'America/Boise',
});
