// KUB electric-outages answer as a point list (pointlist/options.ts): `electricOutage[]` (one point per outage: id,
// customerCount as text, x = longitude, y = latitude, estimatedRestoreTime when ertProvided) and `electricOutageInfo[0]`
// (the system's customers out and served). A missing or null list is no outages (a quiet day may omit it).
import { pointSpec } from '../pointlist/options.ts';

export const SPEC = pointSpec({
  what: 'KUB electric-outages answer',
  list: 'electricOutage',
  list_optional: true,
  count: 'customerCount',
  id: 'id',
  lon: 'x',
  lat: 'y',
  etr: 'estimatedRestoreTime',
  etr_flag: 'ertProvided',
  total: 'electricOutageInfo.0.electricCustomersWithoutPower',
  served: 'electricOutageInfo.0.totalElectricCustomers',
  // Knoxville keeps Eastern time; Tennessee is split between zones, and the state alone would say Central.
  time_zone: 'America/New_York',
});
