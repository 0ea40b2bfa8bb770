// The schema of /api/v1/sources/verification's `data` (schemas.ts wraps it in the envelope): the last verify report.
import { FAILURE_KINDS } from '../registry/verify-advice.ts';
import { CONNECTORS } from '../sources/source-def.ts';

const obj = (props: Record<string, unknown>) => ({ type: 'object', required: Object.keys(props), properties: props });
const int = { type: 'integer', minimum: 0 };
const nullableInt = { type: ['integer', 'null'], minimum: 0 };
const time = { type: 'string', format: 'date-time' };

const row = obj({
  id: { type: 'string' },
  utility: { type: 'string' },
  connector: { type: 'string', enum: [...CONNECTORS] },
  states: { type: 'array', items: { type: 'string', pattern: '^[A-Z]{2}$' } },
  url: { type: 'string' },
  answered: { type: 'boolean', description: 'An HTTP answer came to the request that decided the outcome.' },
  status: { ...nullableInt, description: "That answer's HTTP status (the first request's when all went well)." },
  parsed: { type: 'boolean', description: 'The connector read the answers into a snapshot that passed quarantine.' },
  requests: int,
  customers_out: nullableInt,
  customers_served: nullableInt,
  counties: nullableInt,
  counties_outside_territory: {
    ...nullableInt,
    description:
      "Counties of the answer outside the utility's EIA-861 service territory; null when the territory was not checked.",
  },
  outside_territory: { type: 'array', items: { type: 'string', pattern: '^\\d{5}$' }, maxItems: 10 },
  eia_customers: { ...nullableInt, description: "EIA-861 customers of the row's utilities (eia_id) in its states." },
  served_vs_eia: { type: ['number', 'null'], minimum: 0, description: 'customers_served / eia_customers.' },
  ms: int,
  failure: {
    oneOf: [
      { type: 'null' },
      obj({
        kind: { type: 'string', enum: [...FAILURE_KINDS] },
        reason: { type: 'string', description: 'The poll failure reason, or `deadline` (the total deadline).' },
        message: { type: 'string', description: 'What happened, quoting the upstream where it helps.' },
        advice: { type: 'string', description: 'What to do about it.' },
      }),
    ],
  },
});

const report = obj({
  format: { const: 'outage-verify/1' },
  started_at: time,
  finished_at: time,
  ms: int,
  registry: { type: 'string' },
  user_agent: { type: 'string' },
  deadline_s: int,
  eia: { type: 'string', description: 'What the customers and territory were compared with.' },
  summary: obj({ rows: int, ok: int, failed: int, not_probed: int }),
  rows: { type: 'array', items: row },
});

export const SOURCES_VERIFICATION = obj({
  generated_at: { ...time, description: 'When this content was generated; unchanged content keeps its time.' },
  simulated: { type: 'boolean' },
  report: { oneOf: [{ type: 'null' }, report], description: 'The last verification; null until one has run.' },
  message: { type: 'string' },
});
