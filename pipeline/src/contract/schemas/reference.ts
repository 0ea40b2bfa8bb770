// The schemas of the reference documents: the place index, coverage and the sources' verification.
import { PLACE_TABLES } from '../catalogue.ts';
import { SOURCES_VERIFICATION } from '../verification-schema.ts';
import { env, fips, generated, int, obj, stateCode } from './parts.ts';

const coverageShare = { type: 'number', description: "Percent of the scope's customers (EIA-861 2018), 2 decimals." };
const uncoveredUtility = obj({
  eia_id: int,
  utility: { type: 'string' },
  states: { type: 'array', items: stateCode },
  customers: int,
  reason: { type: 'string', enum: ['gated', 'not_yet_wired', 'disabled', 'state_not_in_feed', 'no_public_feed'] },
  source_id: { type: ['string', 'null'], description: 'The registry row that names the utility, if any.' },
  detail: { type: 'string' },
});
const coverageScope = obj({
  scope: { ...stateCode, description: '`US` (the 50 states and DC) or a postal code.' },
  name: { type: 'string' },
  territory: { type: 'boolean', description: 'A territory: listed, not counted in US.' },
  customers: int,
  customers_own_feed: {
    ...int,
    description:
      "Customers covered by a utility's own feed without any credential: a registry row active with no credential set lists the utility and the state; gated rows count as not covered.",
  },
  customers_own_feed_with_credentials: {
    ...int,
    description:
      'Customers covered by an own feed once every credential the registry names is set: also the gated rows that only want the credential in their options.credential_env (listed in `credentials`).',
  },
  customers_odin_only: int,
  customers_not_covered: int,
  pct_own_feed: { ...coverageShare, description: `${coverageShare.description} Own feed without credentials.` },
  pct_own_feed_with_credentials: {
    ...coverageShare,
    description: `${coverageShare.description} Own feed with every credential the registry names.`,
  },
  pct_odin_only: coverageShare,
  pct_covered: coverageShare,
  pct_not_covered: coverageShare,
  largest_uncovered: { type: 'array', items: uncoveredUtility },
});

/** [fips, share]: the share (0–1) of the population of a ZIP code or town in the county; null where unknown. */
const countyShares = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'array',
    prefixItems: [fips, { type: ['number', 'null'], minimum: 0, maximum: 1 }],
    items: false,
    minItems: 2,
  },
};

export const REFERENCE_SCHEMAS: Record<string, Record<string, unknown>> = {
  PlaceIndex: env({
    type: 'object',
    required: ['generated_at', 'table', 'credit'],
    additionalProperties: false,
    description:
      'One table of the place index (`?table=`): exactly one of `counties`, `places`, `zips`. Match names after folding case, accents and punctuation; a county name may carry its kind ("Harris County") and a state ("Harris, TX").',
    properties: {
      generated_at: generated,
      table: { type: 'string', enum: [...PLACE_TABLES] },
      credit: { type: 'string', description: 'Where the tables come from and their licences (cite them).' },
      counties: {
        type: 'array',
        description: 'Every county with a county page, by FIPS.',
        items: {
          type: 'array',
          prefixItems: [
            fips,
            { type: 'string', description: 'name as the county page titles it (independent cities end in "city")' },
            stateCode,
            { ...int, description: 'population (this service’s ZIP-based model, data/reference); 0 when unknown' },
          ],
          items: false,
          minItems: 4,
        },
      },
      places: {
        type: 'array',
        description:
          'Towns and cities: the USPS city of every ZIP code, by state. Sorted by state, then name; a name may repeat in other states.',
        items: {
          type: 'array',
          prefixItems: [
            { type: 'string', description: 'name' },
            stateCode,
            { ...int, description: 'population of its ZIP codes' },
            { ...countyShares, description: 'its counties, the largest share first' },
          ],
          items: false,
          minItems: 4,
        },
      },
      zips: {
        type: 'object',
        description: 'ZIP code tabulation area (5 digits) → its counties, the largest share first.',
        patternProperties: { '^\\d{5}$': countyShares },
        additionalProperties: false,
      },
    },
  }),
  Coverage: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      registry: { type: 'string' },
      method: { type: 'string' },
      credentials: obj({
        env: {
          type: 'array',
          items: { type: 'string' },
          description: 'The environment variables the registry names (options.credential_env of its gated rows).',
        },
        sources: {
          type: 'array',
          items: { type: 'string' },
          description: 'The gated rows those variables make active: counted in the `_with_credentials` figures only.',
        },
      }),
      odin_estimate: obj({ method: { type: 'string' }, utilities: int }),
      national: coverageScope,
      states: { type: 'array', items: coverageScope },
    }),
  ),
  SourcesVerification: env(SOURCES_VERIFICATION),
};
