// The schemas of the service's own answers: the error shape, /healthz and the retired subscription's 410.
import { ERROR_CODES } from '../errors.ts';
import { env, obj } from './parts.ts';

export const errorBody = env(
  obj({
    error: obj(
      {
        status: { type: 'integer' },
        code: { type: 'string', enum: [...ERROR_CODES] },
        message: { type: 'string' },
        param: { type: 'string' },
        allowed: { type: 'array', items: { type: 'string' } },
        see: { type: 'string' },
      },
      ['status', 'code', 'message'],
    ),
  }),
);

export const SERVICE_SCHEMAS: Record<string, Record<string, unknown>> = {
  Health: env(
    obj({
      status: { enum: ['ok', 'degraded', 'unavailable'] },
      ready: { type: 'boolean', description: 'false exactly when the answer is 503' },
      checked_at: { type: 'string', format: 'date-time' },
      problems: { type: 'array', items: { type: 'string' }, description: 'What makes it degraded or unavailable.' },
      last_cycle_at: { type: ['string', 'null'], format: 'date-time', description: "The last cycle's time." },
      last_cycle_age_s: {
        type: ['integer', 'null'],
        description: 'Seconds since the poll loop last finished a cycle.',
      },
      last_cycle_ms: { type: ['integer', 'null'] },
      sources: { type: ['integer', 'null'], description: 'Sources in the registry being polled.' },
      stale_sources: { type: 'array', items: { type: 'string' }, description: 'Ids of the stale sources.' },
      failed_last_cycle: { type: ['integer', 'null'] },
      generation: { type: ['string', 'null'], description: 'The live generation being served.' },
      published_at: { type: ['string', 'null'], format: 'date-time' },
      publish_lag_s: {
        type: ['integer', 'null'],
        description: 'Seconds the served generation is behind the one the poll loop last published (0 in step).',
      },
    }),
  ),
  Gone: env(
    obj({
      error: obj(
        { status: { const: 410 }, code: { const: 'gone' }, message: { type: 'string' }, see: { type: 'string' } },
        ['status', 'code', 'message'],
      ),
    }),
  ),
};
