// The pieces the response schemas share: counts, shares and ramps, times and codes, the envelopes, and the rule
// of customers tracked.
import { BAND_THRESHOLDS_PCT, MAGNITUDE_THRESHOLDS } from '../../state/rules.ts';

export const int = { type: 'integer', minimum: 0 };
export const nullableInt = { type: ['integer', 'null'], minimum: 0 };
export const pct = {
  type: ['number', 'null'],
  minimum: 0,
  maximum: 100,
  description:
    'Percent of customers out (0–100). Null when the denominator is smaller than the outage or missing; never clamped.',
};
export const bandS = {
  type: 'integer',
  minimum: -1,
  maximum: 5,
  description: `Share ramp: 0–5 at ${BAND_THRESHOLDS_PCT.join(', ')} % out; −1 where no denominator can be trusted (pct_out is null).`,
};
export const magS = {
  type: 'integer',
  minimum: 0,
  maximum: 5,
  description: `Headcount ramp: 0–5 at ${MAGNITUDE_THRESHOLDS.map((n) => n.toLocaleString('en-US')).join(', ')} customers out.`,
};
export const levelS = {
  type: 'number',
  minimum: 0,
  maximum: 5,
  description:
    'Legacy score (superseded by band): 0.5 × magnitude + 0.3 × min(pct_out, 100)/20 + 0.2 × mean magnitude of adjacent counties (for a state: of its counties out), 2 decimals.',
};
export const time = { type: 'string', format: 'date-time' };
export const nullableTime = { type: ['string', 'null'], format: 'date-time' };
export const fips = { type: 'string', pattern: '^\\d{5}$' };
export const stateCode = { type: 'string', pattern: '^[A-Z]{2}$' };
export const generated = { ...time, description: 'When this content was generated; unchanged content keeps its time.' };

export const envMeta = (inner: Record<string, unknown>) => ({
  type: 'object',
  required: ['data', 'meta'],
  additionalProperties: false,
  properties: {
    data: inner,
    meta: {
      type: 'object',
      required: ['notice', 'filters'],
      properties: {
        notice: { type: 'string' },
        filters: { type: 'object', description: 'The filters applied, as parsed (thresholds for alerts).' },
      },
    },
  },
});
export const env = (inner: Record<string, unknown>) => ({
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: { data: inner },
});
export const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  required,
  properties: props,
});

/** issue 36 part 5: coverage we have, not the customers there are (state/tracked.ts). */
export const TRACKED_RULE =
  "a fresh source counts, in each county it serves, the feed's own served count where it gives one, else the registry row's customers spread over the utility's EIA-861 2018 service territory (data/reference/eia861-territory.csv) in proportion to the counties' modelled customers; a stale or unpolled source counts nothing";
