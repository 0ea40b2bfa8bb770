// The v1 additive-only guard: what a new OpenAPI document breaks for a client written against the baseline.
// spec: Versioning — no path, parameter, response field or enum value removed or renamed, no type narrowed, no new
// required input. Additions pass. (No maintained OpenAPI 3.1 diff tool installs on Node 20 here; see README.)
import { fromRoot } from '../package-root.ts';

/** The committed v1 document every generated one is checked against (`npm run openapi:baseline` rewrites it). */
export const OPENAPI_BASELINE = fromRoot('pipeline/openapi-baseline.json');

type Schema = Record<string, any>;
export interface Break {
  /** where, e.g. `GET /api/v1/events › query parameter \`limit\`` */
  at: string;
  problem: string;
}
/** request: what a client sends (more required = break); response: what it reads (less guaranteed = break) */
type Direction = 'request' | 'response';
interface Ctx {
  before: Schema;
  after: Schema;
  out: Break[];
  seen: Set<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function breakingChanges(before: Schema, after: Schema): Break[] {
  const ctx: Ctx = { before, after, out: [], seen: new Set() };
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [p, ops] of Object.entries<Schema>(before[section] ?? {})) {
      const label = section === 'webhooks' ? `webhook ${p}` : p;
      const next = after[section]?.[p];
      if (!next) {
        ctx.out.push({ at: label, problem: 'path removed or renamed' });
        continue;
      }
      for (const m of METHODS.filter((x) => ops[x])) {
        const at = `${m.toUpperCase()} ${label}`;
        // A webhook's body is what the service sends: the subscriber reads it as it reads a response.
        if (!next[m]) ctx.out.push({ at, problem: 'operation removed' });
        else operation(ctx, at, ops[m], next[m], section === 'webhooks' ? 'response' : 'request');
      }
    }
  }
  return ctx.out;
}

function operation(ctx: Ctx, at: string, a: Schema, b: Schema, bodyDir: Direction): void {
  const push = (where: string, problem: string) => ctx.out.push({ at: where, problem });
  const key = (p: Schema) => `${p.in}:${p.name}`;
  const label = (p: Schema) => `${at} › ${p.in} parameter \`${p.name}\``;
  const bParams = new Map<string, Schema>((b.parameters ?? []).map((p: Schema) => [key(p), p]));
  const aKeys = new Set((a.parameters ?? []).map(key));
  for (const p of a.parameters ?? []) {
    const q = bParams.get(key(p));
    if (!q) push(label(p), 'parameter removed or renamed');
    else if (!p.required && q.required) push(label(p), 'parameter became required');
    if (q) schema(ctx, label(p), p.schema ?? {}, q.schema ?? {}, 'request');
  }
  for (const [k, q] of bParams) if (q.required && !aKeys.has(k)) push(label(q), 'new required parameter');
  if (!a.security?.length && b.security?.length) push(at, 'now needs authentication');
  if (bodyDir === 'request' && !a.requestBody?.required && b.requestBody?.required)
    push(`${at} › request body`, 'request body became required');
  content(ctx, `${at} › request body`, a.requestBody?.content, b.requestBody?.content, bodyDir);
  for (const [status, r] of Object.entries<Schema>(a.responses ?? {})) {
    const s = b.responses?.[status];
    const where = `${at} › ${status}`;
    if (!s) {
      push(where, 'response removed');
      continue;
    }
    for (const [h, def] of Object.entries<Schema>(r.headers ?? {})) {
      if (!s.headers?.[h]) push(`${where} › header ${h}`, 'response header removed');
      else schema(ctx, `${where} › header ${h}`, def.schema ?? {}, s.headers[h].schema ?? {}, 'response');
    }
    content(ctx, where, r.content, s.content, 'response');
  }
}

function content(ctx: Ctx, at: string, a: Schema | undefined, b: Schema | undefined, dir: Direction): void {
  for (const [type, m] of Object.entries<Schema>(a ?? {})) {
    if (!b?.[type]) ctx.out.push({ at: `${at} › ${type}`, problem: 'media type removed' });
    else schema(ctx, `${at} › ${type} › body`, m.schema ?? {}, b[type].schema ?? {}, dir);
  }
}

const deref = (doc: Schema, s: Schema): Schema =>
  typeof s?.$ref === 'string'
    ? deref(
        doc,
        s.$ref
          .slice(2)
          .split('/')
          .reduce((o: any, k: string) => o?.[k], doc) ?? {},
      )
    : (s ?? {});
const typesOf = (s: Schema): string[] | null => (s.type === undefined ? null : [s.type].flat());
const ANY_KEYS = ['type', 'const', 'enum', 'oneOf', 'anyOf', 'allOf', 'properties', 'items', '$ref'];
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems'];

function schema(ctx: Ctx, at: string, rawA: Schema, rawB: Schema, dir: Direction): void {
  if (rawA?.$ref && rawB?.$ref) {
    const pair = `${rawA.$ref}|${rawB.$ref}|${dir}`;
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
    for (const [k, s] of Object.entries<Schema>(a[members] ?? {})) {
      if (!b[members]?.[k]) push(what, field(k));
      else schema(ctx, field(k), s, b[members][k], dir);
    }
  }
  const [reqA, reqB]: string[][] = [a.required ?? [], b.required ?? []];
  if (dir === 'response')
    for (const k of reqA.filter((x) => !reqB.includes(x))) push('field no longer always present', field(k));
  if (dir === 'request') for (const k of reqB.filter((x) => !reqA.includes(x))) push('field became required', field(k));
  if (a.items && b.items) schema(ctx, `${at}[]`, a.items, b.items, dir);
  if (typeof a.additionalProperties === 'object' && typeof b.additionalProperties === 'object') {
    schema(ctx, `${at}.*`, a.additionalProperties, b.additionalProperties, dir);
  }
  for (const k of ['prefixItems', 'oneOf', 'anyOf', 'allOf']) {
    (a[k] ?? []).forEach((s: Schema, i: number) =>
      b[k]?.[i] ? schema(ctx, `${at}.${k}[${i}]`, s, b[k][i], dir) : push(`${k}[${i}] removed`),
    );
  }
}

/** The values a schema admits: its type, enum, const, bounds, pattern and format may widen, never narrow. */
function values(a: Schema, b: Schema, push: (problem: string) => void): void {
  const [ta, tb] = [typesOf(a), typesOf(b)];
  const lost = ta && tb ? ta.filter((t) => !tb.includes(t) && !(t === 'integer' && tb.includes('number'))) : [];
  if (lost.length) push(`type narrowed: ${ta!.join('|')} → ${tb!.join('|')}`);
  if (!ta && tb && !ANY_KEYS.some((k) => k in a)) push(`type narrowed: any → ${tb.join('|')}`);
  if (a.enum && b.enum)
    for (const v of a.enum.filter((x: unknown) => !b.enum.includes(x))) push(`enum value ${JSON.stringify(v)} removed`);
  if (!a.enum && b.enum) push('now limited to an enum');
  if (a.const !== undefined && b.const !== a.const && !(b.enum ?? []).includes(a.const))
    push(`value ${JSON.stringify(a.const)} no longer allowed`);
  if (a.const === undefined && !a.enum && b.const !== undefined) push('now limited to one value');
  const narrowed = (k: string) => push(`narrowed: ${k} ${a[k] ?? 'none'} → ${b[k]}`);
  for (const k of LOWER) if (b[k] !== undefined && (a[k] === undefined || b[k] > a[k])) narrowed(k);
  for (const k of UPPER) if (b[k] !== undefined && (a[k] === undefined || b[k] < a[k])) narrowed(k);
  for (const k of ['pattern', 'format']) if (b[k] !== undefined && b[k] !== a[k]) narrowed(k);
}
