// The v1 additive-only guard: what a new OpenAPI document breaks for a client written against the baseline.
// spec: Versioning — no path, parameter, response field or enum value removed or renamed, no type narrowed, no new
// required input. Additions pass. (No maintained OpenAPI 3.1 diff tool installs on Node 20 here; see docs/guardrails.md.)
import { fromRoot } from '../package-root.ts';

/** The committed v1 document every generated one is checked against (`npm run openapi:baseline` rewrites it). */
export const OPENAPI_BASELINE = fromRoot('pipeline/openapi-baseline.json');

/** An object of the parsed document: the document itself, a path item, operation, parameter, response, JSON Schema… */
type Obj = Record<string, unknown>;
export interface Break {
  /** where, e.g. `GET /api/v1/events › query parameter \`limit\`` */
  at: string;
  problem: string;
}
/** request: what a client sends (more required = break); response: what it reads (less guaranteed = break) */
type Direction = 'request' | 'response';
interface Ctx {
  before: Obj;
  after: Obj;
  out: Break[];
  seen: Set<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `v` if it is an object (or array), else an empty object: a missing part of the document reads as empty. */
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
/** `v` if it is an array, else an empty one. */
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The members of object `v`, each read as an object. */
const entries = (v: unknown): Array<[string, Obj]> => Object.entries(obj(v)).map(([k, m]) => [k, obj(m)]);
/** `v?.[k1]?.[k2]…`: the member at `path`, or undefined where a part of it is missing. */
const get = (v: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((o, k) => (o !== null && typeof o === 'object' ? (o as Obj)[k] : undefined), v);

export function breakingChanges(before: Obj, after: Obj): Break[] {
  const ctx: Ctx = { before, after, out: [], seen: new Set() };
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [p, ops] of entries(before[section])) {
      const label = section === 'webhooks' ? `webhook ${p}` : p;
      const next = get(after, section, p);
      if (!next) {
        ctx.out.push({ at: label, problem: 'path removed or renamed' });
        continue;
      }
      for (const m of METHODS.filter((x) => ops[x])) {
        const at = `${m.toUpperCase()} ${label}`;
        // A webhook's body is what the service sends: the subscriber reads it as it reads a response.
        if (!get(next, m)) ctx.out.push({ at, problem: 'operation removed' });
        else operation(ctx, at, obj(ops[m]), obj(get(next, m)), section === 'webhooks' ? 'response' : 'request');
      }
    }
  }
  return ctx.out;
}

function operation(ctx: Ctx, at: string, a: Obj, b: Obj, bodyDir: Direction): void {
  const push = (where: string, problem: string) => ctx.out.push({ at: where, problem });
  const key = (p: Obj) => `${p.in}:${p.name}`;
  const label = (p: Obj) => `${at} › ${p.in} parameter \`${p.name}\``;
  const params = (o: Obj) => list(o.parameters).map(obj);
  const bParams = new Map(params(b).map((p) => [key(p), p]));
  const aKeys = new Set(params(a).map(key));
  for (const p of params(a)) {
    const q = bParams.get(key(p));
    if (!q) push(label(p), 'parameter removed or renamed');
    else if (!p.required && q.required) push(label(p), 'parameter became required');
    if (q) schema(ctx, label(p), p.schema, q.schema, 'request');
  }
  for (const [k, q] of bParams) if (q.required && !aKeys.has(k)) push(label(q), 'new required parameter');
  if (!list(a.security).length && list(b.security).length) push(at, 'now needs authentication');
  if (bodyDir === 'request' && !get(a, 'requestBody', 'required') && get(b, 'requestBody', 'required'))
    push(`${at} › request body`, 'request body became required');
  content(ctx, `${at} › request body`, get(a, 'requestBody', 'content'), get(b, 'requestBody', 'content'), bodyDir);
  for (const [status, r] of entries(a.responses)) {
    const s = get(b, 'responses', status);
    const where = `${at} › ${status}`;
    if (!s) {
      push(where, 'response removed');
      continue;
    }
    for (const [h, def] of entries(r.headers)) {
      if (!get(s, 'headers', h)) push(`${where} › header ${h}`, 'response header removed');
      else schema(ctx, `${where} › header ${h}`, def.schema, get(s, 'headers', h, 'schema'), 'response');
    }
    content(ctx, where, r.content, get(s, 'content'), 'response');
  }
}

function content(ctx: Ctx, at: string, a: unknown, b: unknown, dir: Direction): void {
  for (const [type, m] of entries(a)) {
    if (!get(b, type)) ctx.out.push({ at: `${at} › ${type}`, problem: 'media type removed' });
    else schema(ctx, `${at} › ${type} › body`, m.schema, get(b, type, 'schema'), dir);
  }
}

/** Schema `s`, or where its `$ref` (`#/…`) points in `doc`, followed to a schema that is no reference. */
const deref = (doc: Obj, s: unknown): Obj => {
  const { $ref } = obj(s);
  return typeof $ref === 'string' ? deref(doc, get(doc, ...$ref.slice(2).split('/'))) : obj(s);
};
const typesOf = (s: Obj): unknown[] | null => (s.type === undefined ? null : [s.type].flat());
const ANY_KEYS = ['type', 'const', 'enum', 'oneOf', 'anyOf', 'allOf', 'properties', 'items', '$ref'];
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'];

function schema(ctx: Ctx, at: string, rawA: unknown, rawB: unknown, dir: Direction): void {
  const [refA, refB] = [get(rawA, '$ref'), get(rawB, '$ref')];
  if (refA && refB) {
    const pair = `${refA}|${refB}|${dir}`;
    if (ctx.seen.has(pair)) return; // each pair of named schemas once: no repeated reports, and recursion ends
    ctx.seen.add(pair);
  }
  const a = deref(ctx.before, rawA);
  const b = deref(ctx.after, rawB);
  const push = (problem: string, where = at) => ctx.out.push({ at: where, problem });
  values(a, b, push);
  const field = (k: string) => `${at}.${k}`;
  for (const [members, what] of [
    ['properties', 'field removed or renamed'],
    ['patternProperties', 'keys matching this pattern removed'],
  ]) {
    for (const [k, s] of Object.entries(obj(a[members]))) {
      if (!get(b, members, k)) push(what, field(k));
      else schema(ctx, field(k), s, get(b, members, k), dir);
    }
  }
  const [reqA, reqB] = [list(a.required).map(String), list(b.required).map(String)];
  if (dir === 'response')
    for (const k of reqA.filter((x) => !reqB.includes(x))) push('field no longer always present', field(k));
  if (dir === 'request') for (const k of reqB.filter((x) => !reqA.includes(x))) push('field became required', field(k));
  if (a.items && b.items) schema(ctx, `${at}[]`, a.items, b.items, dir);
  if (typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') {
    schema(ctx, `${at}.*`, a.additionalProperties, b.additionalProperties, dir);
  }
  for (const k of ['prefixItems', 'oneOf', 'anyOf', 'allOf']) {
    for (const [i, s] of list(a[k]).entries()) {
      if (get(b, k, String(i))) schema(ctx, `${at}.${k}[${i}]`, s, get(b, k, String(i)), dir);
      else push(`${k}[${i}] removed`);
    }
  }
}

/** The values a schema admits: its type, enum, const, bounds, pattern and format may widen, never narrow. */
function values(a: Obj, b: Obj, push: (problem: string) => void): void {
  const [ta, tb] = [typesOf(a), typesOf(b)];
  const lost = ta && tb ? ta.filter((t) => !tb.includes(t) && !(t === 'integer' && tb.includes('number'))) : [];
  if (lost.length) push(`type narrowed: ${ta!.join('|')} → ${tb!.join('|')}`);
  if (!ta && tb && !ANY_KEYS.some((k) => k in a)) push(`type narrowed: any → ${tb.join('|')}`);
  if (a.enum && b.enum)
    for (const v of list(a.enum).filter((x) => !list(b.enum).includes(x)))
      push(`enum value ${JSON.stringify(v)} removed`);
  if (!a.enum && b.enum) push('now limited to an enum');
  if (a.const !== undefined && b.const !== a.const && !list(b.enum).includes(a.const))
    push(`value ${JSON.stringify(a.const)} no longer allowed`);
  if (a.const === undefined && !a.enum && b.const !== undefined) push('now limited to one value');
  const narrowed = (k: string) => push(`narrowed: ${k} ${a[k] ?? 'none'} → ${b[k]}`);
  const bound = (s: Obj, k: string) => Number(s[k]);
  for (const k of LOWER) if (b[k] !== undefined && (a[k] === undefined || bound(b, k) > bound(a, k))) narrowed(k);
  for (const k of UPPER) if (b[k] !== undefined && (a[k] === undefined || bound(b, k) < bound(a, k))) narrowed(k);
  for (const k of ['pattern', 'format']) if (b[k] !== undefined && b[k] !== a[k]) narrowed(k);
}
