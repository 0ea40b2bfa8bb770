// The point-list shape as data (issue 26 part 4): where, in a utility's JSON answer, its outage list is and which field
// of an outage holds its count, position or county, ETR and id. A registry row of the `pointlist` connector names them
// in `options`; a single-utility folder (kub, idahopower, clarkpud, heco) declares its own once. Parsed once per
// options object into a fully-defaulted spec (schema.ts then checks the answer in place for the fields it names).
import { z } from 'zod';
import { SourceError } from '../../errors.ts';

/** A field's place in the answer: dotted keys, a number indexing a list (`electricOutageInfo.0.totalElectricCustomers`). */
const PATH = z
  .string()
  .regex(/^[^.\s]+(\.[^.\s]+)*$/, 'a dotted path such as `object.outages` or `geometry.coordinates.0.x`');

/** The ETR texts a feed prints: ISO 8601 (with or without an offset), US `M/D/YYYY h:mm[:ss] AM`, or `Today at 3:30 PM`. */
export const ETR_FORMATS = ['iso', 'mdy', 'day_at'] as const;
export type EtrFormat = (typeof ETR_FORMATS)[number];

/** The registry options of a `pointlist` row (README: Options); also what a single-utility folder declares. */
export const optionsSchema = z
  .object({
    what: z.string().min(1).default('point-list answer'),
    list: z.union([PATH, z.literal('')]),
    list_optional: z.boolean().default(false),
    count: PATH,
    id: PATH.optional(),
    id_parts: z.array(PATH).default([]),
    id_required: z.boolean().default(false),
    lat: PATH.optional(),
    lon: PATH.optional(),
    point: PATH.optional(),
    text_coordinates: z.boolean().default(false),
    county: PATH.optional(),
    etr: PATH.optional(),
    etr_format: z.enum(ETR_FORMATS).default('iso'),
    etr_flag: PATH.optional(),
    city: PATH.optional(),
    cause: PATH.optional(),
    crew_status: PATH.optional(),
    planned: PATH.optional(),
    total: PATH.optional(),
    served: PATH.optional(),
    time_zone: z.string().min(1).optional(),
    noun: z.string().min(1).default('point'),
  })
  .refine((o) => (o.lat === undefined) === (o.lon === undefined), { message: 'name both lat and lon, or neither' })
  .refine((o) => o.lat !== undefined || o.point !== undefined || o.county !== undefined, {
    message: 'name where an outage is: lat and lon, point ([lon, lat]) or county',
  });

type Path = string[];
const split = (p: string | undefined): Path | null => (p === undefined || p === '' ? null : p.split('.'));

/** The spec normalize reads: every path split once, defaults filled. */
export interface PointSpec {
  what: string;
  list: Path;
  listOptional: boolean;
  count: Path;
  id: Path | null;
  idParts: Path[];
  idRequired: boolean;
  lat: Path | null;
  lon: Path | null;
  point: Path | null;
  textCoordinates: boolean;
  county: Path | null;
  etr: Path | null;
  etrFormat: EtrFormat;
  etrFlag: Path | null;
  city: Path | null;
  cause: Path | null;
  crewStatus: Path | null;
  planned: Path | null;
  total: Path | null;
  served: Path | null;
  timeZone: string | null;
  noun: string;
}

/**
 * Options every row may carry beside the shape (sent headers, the poll's budget, a credential's variable, why the
 * feed is plain http: ../transport.ts).
 */
const ROW_OPTIONS = new Set(['referer', 'max_poll_bytes', 'max_records', 'credential_env', 'plain_http']);

/** The spec for `options`; a bad one, or a key that is neither the shape's nor a row's (a typo), is `config`. */
export function pointSpec(options: Record<string, unknown>): PointSpec {
  const shape = optionsSchema.shape ?? {};
  const unknown = Object.keys(options).find((k) => !(k in shape) && !ROW_OPTIONS.has(k));
  if (unknown !== undefined)
    throw new SourceError(
      'config',
      `pointlist options.${unknown}: not an option of this connector (see pipeline/src/sources/pointlist/README.md)`,
    );
  const r = optionsSchema.safeParse(options);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new SourceError(
      'config',
      `pointlist options${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message} (see pipeline/src/sources/pointlist/README.md)`,
    );
  }
  const o = r.data;
  return {
    what: o.what,
    list: split(o.list) ?? [],
    listOptional: o.list_optional,
    count: o.count.split('.'),
    id: split(o.id),
    idParts: o.id_parts.map((p) => p.split('.')),
    idRequired: o.id_required,
    lat: split(o.lat),
    lon: split(o.lon),
    point: split(o.point),
    textCoordinates: o.text_coordinates,
    county: split(o.county),
    etr: split(o.etr),
    etrFormat: o.etr_format,
    etrFlag: split(o.etr_flag),
    city: split(o.city),
    cause: split(o.cause),
    crewStatus: split(o.crew_status),
    planned: split(o.planned),
    total: split(o.total),
    served: split(o.served),
    timeZone: o.time_zone ?? null,
    noun: o.noun,
  };
}

/** Specs by the options object they were read from: a row's options object lives as long as the registry is loaded. */
const specs = new WeakMap<object, PointSpec>();
export function specOf(options: Record<string, unknown>): PointSpec {
  let spec = specs.get(options);
  if (!spec) specs.set(options, (spec = pointSpec(options)));
  return spec;
}
