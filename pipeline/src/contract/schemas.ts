// Response schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses): the OpenAPI document and the contract tests share them.
// Each endpoint family's schemas are declared beside it (schemas/*.ts); this module joins them, in the published
// order (the key order of components.schemas).
import { ARCHIVE_SCHEMAS } from './schemas/archive.ts';
import { COUNTY_SCHEMAS } from './schemas/counties.ts';
import { EVENT_SCHEMAS } from './schemas/events.ts';
import { LIVE_COUNTY_SCHEMAS } from './schemas/live-county.ts';
import { LIVE_SCHEMAS, mapEntry } from './schemas/live.ts';
import { REFERENCE_SCHEMAS } from './schemas/reference.ts';
import { REPORT_SCHEMAS } from './schemas/reports.ts';
import { SERVICE_SCHEMAS, errorBody } from './schemas/service.ts';

export { mapEntry };

export const SCHEMAS: Record<string, Record<string, unknown>> = {
  MapEntry: mapEntry,
  ErrorBody: errorBody,
  ...REFERENCE_SCHEMAS,
  ...LIVE_SCHEMAS,
  ...LIVE_COUNTY_SCHEMAS,
  ...COUNTY_SCHEMAS,
  ...ARCHIVE_SCHEMAS,
  ...REPORT_SCHEMAS,
  ...EVENT_SCHEMAS,
  ...SERVICE_SCHEMAS,
};
