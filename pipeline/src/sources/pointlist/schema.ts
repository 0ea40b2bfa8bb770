// A point-list answer checked in place for the fields its spec names (options.ts): the outage list, each outage's
// fields and the headline figures. A misfit is the `schema` failure naming the field's path, as in the other folders'
// hand checks; a field the spec names that is absent or null reads as null.
import { fail, isObj, nullish, pathOf } from '../checks.ts';
import type { PointSpec } from './options.ts';

type Path = string[];
type NumText = number | string | null;

/** One outage's fields as the spec names them, each checked; null where the outage has none. */
export interface OutageFields {
  count: NumText;
  id: NumText;
  idParts: NumText[];
  /** numbers, or numeric text where the spec allows text coordinates */
  lat: NumText;
  lon: NumText;
  /** a `[lon, lat]` list */
  point: [number, number] | null;
  county: string | null;
  /** text, or epoch milliseconds */
  etr: NumText;
  etrFlag: boolean | string | null;
  city: string | null;
  cause: string | null;
  crewStatus: string | null;
  planned: boolean | null;
}

const join = (at: string, key: string) => (at ? `${at}.${key}` : key);

/**
 * The value at `path` below `from` (whose own place is `at`), or undefined when a step is absent or null. A step into
 * something that is not an object (or, for a numeric key, a list) is a misfit.
 */
function walk(what: string, from: unknown, path: Path, at: string): unknown {
  let v = from;
  let here = at;
  for (const key of path) {
    if (nullish(v)) return undefined;
    const list = Array.isArray(v);
    if (list ? !/^\d+$/.test(key) : !isObj(v)) fail(what, pathOf(here), list ? 'object' : 'object or list', v);
    v = (v as Record<string, unknown>)[key];
    here = join(here, key);
  }
  return v;
}

/** The outage list; an absent one (or a step to it) is no outages only where the spec says so. */
export function outagesOf(spec: PointSpec, raw: unknown): unknown[] {
  let v = raw;
  let here = '';
  for (const key of spec.list) {
    if (nullish(v) && spec.listOptional) return [];
    if (!isObj(v)) fail(spec.what, pathOf(here), 'object', v);
    v = v[key];
    here = join(here, key);
  }
  if (nullish(v) && spec.listOptional) return [];
  if (!Array.isArray(v)) fail(spec.what, pathOf(here), 'array', v);
  return v;
}

/** Where the list is, for failures about its records. */
export const listAt = (spec: PointSpec): string => spec.list.join('.');

/** A headline figure (total or served) at `path` from the root: a number or text, else null. */
export function figureOf(spec: PointSpec, raw: unknown, path: Path | null): NumText {
  if (!path) return null;
  const v = walk(spec.what, raw, path, '');
  if (nullish(v)) return null;
  if (typeof v !== 'number' && typeof v !== 'string') fail(spec.what, path.join('.'), 'number or string', v);
  return v;
}

/** Reads one field of outage `item` (at `at`) and checks it with `ok`, naming `want` in the failure. */
function read<T>(
  spec: PointSpec,
  item: unknown,
  path: Path | null,
  at: string,
  ok: (v: unknown) => boolean,
  want: string,
) {
  if (!path) return null;
  const v = walk(spec.what, item, path, at);
  if (nullish(v)) return null;
  if (!ok(v)) fail(spec.what, join(at, path.join('.')), want, v);
  return v as T;
}

const isNumText = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string';
const isText = (v: unknown): boolean => typeof v === 'string';
const isNumber = (v: unknown): boolean => typeof v === 'number';
const isPosition = (v: unknown): boolean =>
  Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number' && typeof v[1] === 'number';

/** Outage `i` of the list, checked for every field the spec names. */
export function fieldsOf(spec: PointSpec, item: unknown, i: number): OutageFields {
  const at = pathOf(listAt(spec), i);
  if (!isObj(item)) fail(spec.what, at, 'object', item);
  const coord = spec.textCoordinates ? isNumText : isNumber;
  const coordWant = spec.textCoordinates ? 'number or string' : 'number';
  const fields: OutageFields = {
    count: read<NumText>(spec, item, spec.count, at, isNumText, 'number or string'),
    id: read<NumText>(spec, item, spec.id, at, isNumText, 'number or string'),
    idParts: spec.idParts.map((p) => read<NumText>(spec, item, p, at, isNumText, 'number or string')),
    lat: read<NumText>(spec, item, spec.lat, at, coord, coordWant),
    lon: read<NumText>(spec, item, spec.lon, at, coord, coordWant),
    point: read<[number, number]>(spec, item, spec.point, at, isPosition, '[lon, lat] numbers'),
    county: read<string>(spec, item, spec.county, at, isText, 'string'),
    etr: read<NumText>(spec, item, spec.etr, at, isNumText, 'string or number (epoch ms)'),
    etrFlag: read<boolean | string>(
      spec,
      item,
      spec.etrFlag,
      at,
      (v) => typeof v === 'boolean' || isText(v),
      'boolean or string',
    ),
    city: read<string>(spec, item, spec.city, at, isText, 'string'),
    cause: read<string>(spec, item, spec.cause, at, isText, 'string'),
    crewStatus: read<string>(spec, item, spec.crewStatus, at, isText, 'string'),
    planned: read<boolean>(spec, item, spec.planned, at, (v) => typeof v === 'boolean', 'boolean'),
  };
  if (spec.idRequired && fields.id === null)
    fail(spec.what, join(at, (spec.id ?? ['id']).join('.')), 'number or string', undefined);
  return fields;
}
