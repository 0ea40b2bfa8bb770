// The schemas of the archive: its index, a day file, its Data Package, the map at a past quarter, a county's series.
import { TRACKED_RULE, env, fips, generated, int, nullableInt, nullableTime, obj, time } from './parts.ts';

export const ARCHIVE_SCHEMAS: Record<string, Record<string, unknown>> = {
  ArchiveDataPackage: {
    type: 'object',
    required: ['profile', 'name', 'licenses', 'resources'],
    properties: {
      profile: { const: 'tabular-data-package' },
      name: { type: 'string' },
      title: { type: 'string' },
      description: { type: 'string' },
      created: { type: 'string', format: 'date-time' },
      licenses: { type: 'array', items: { type: 'object' } },
      sources: { type: 'array', items: { type: 'object' } },
      resources: {
        type: 'array',
        description: 'Every finished day, oldest first.',
        items: {
          type: 'object',
          required: ['name', 'path', 'bytes', 'hash', 'schema'],
          properties: {
            name: { type: 'string', pattern: '^archive-\\d{4}-\\d{2}-\\d{2}$' },
            profile: { const: 'tabular-data-resource' },
            path: { type: 'string', pattern: '^days/\\d{4}-\\d{2}-\\d{2}\\.csv$' },
            format: { const: 'csv' },
            mediatype: { const: 'text/csv' },
            encoding: { const: 'utf-8' },
            bytes: int,
            hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
            schema: { type: 'object' },
          },
        },
      },
    },
  },
  Archive: env(
    obj({
      generated_at: generated,
      simulated: { type: 'boolean' },
      first_quarter: { ...nullableTime, description: 'The first quarter hour archived; null before any.' },
      last_quarter: {
        ...nullableTime,
        description:
          'The latest quarter hour archived (named by its start, as every quarter: never after `generated_at`); null before any.',
      },
      columns: {
        type: 'array',
        items: obj({ name: { type: 'string' }, type: { type: 'string' }, description: { type: 'string' } }),
        description: "The day files' columns, in order (EAGLE-I's five first).",
      },
      days: {
        type: 'array',
        description: 'Every finished UTC day, oldest first.',
        items: obj({
          day: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          rows: int,
          quarters: { ...int, maximum: 96, description: 'Quarter hours the poller reached (96 in a full day).' },
          csv: obj({ url: { type: 'string' }, bytes: int, sha256: { type: 'string' } }),
          parquet: obj({ url: { type: 'string' }, bytes: int, sha256: { type: 'string' } }),
        }),
      },
      today: {
        type: ['object', 'null'],
        description: 'The day in progress (its files are written when it ends); null before any quarter.',
        properties: { day: { type: 'string' }, rows: int, quarters: int },
      },
    }),
  ),
  ArchiveDay: {
    type: 'string',
    description: 'A Parquet (zstd) or CSV file of one UTC day; its columns are listed in /api/v1/archive.',
  },
  ArchiveIncidents: {
    type: 'string',
    description:
      "A Parquet (zstd) or CSV file of one UTC day's finished incidents; its columns are in the endpoint's description.",
  },
  ArchiveMap: env(
    obj({
      generated_at: generated,
      quarter_at: {
        ...time,
        description:
          "The quarter hour containing `at`, named by its start as EAGLE-I's run_start_time (10:07 is in the 10:00 quarter).",
      },
      simulated: { type: 'boolean' },
      coverage: obj({
        cycle_at: { ...time, description: "The quarter's latest cycle: its values are the quarter's." },
        sources_total: int,
        sources_fresh: int,
        customers_tracked: {
          ...nullableInt,
          description: `Customers served nationally by the sources fresh at the quarter (${TRACKED_RULE}). Null when none was fresh.`,
        },
      }),
      map: {
        type: 'object',
        description: 'As /api/v1/live/map: counties out under their FIPS, every state under its code.',
        additionalProperties: { $ref: '#/components/schemas/MapEntry' },
      },
    }),
  ),
  ArchiveSeries: env(
    obj({
      generated_at: generated,
      fips,
      from: time,
      to: time,
      series: {
        type: 'array',
        items: obj({
          at: time,
          customers_out: int,
          customers_tracked: {
            ...nullableInt,
            description: `The county's customers served by the sources fresh at the quarter (${TRACKED_RULE}); null when none was, or no value was archived.`,
          },
          stale: { type: 'boolean' },
        }),
      },
    }),
  ),
};
