// Applies a fuzz mutation to one upstream answer: JSON-level edits are rendered by a serializer that can write raw
// number tokens and duplicate keys; transport-level ones (HTML, empty, oversized, stalled) change what is sent.
import type { Answer } from './fixtures.ts';
import { EMPTY_BODIES, HOSTILE_TEXT, HTML_PAGES, type Mutation, type StallMode, type Target } from './mutations.ts';

/** What the loopback upstream sends for one request. */
export interface Served {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** send Content-Length (else the body goes chunked) */
  declareLength: boolean;
  stall: StallMode | null;
}

interface Edit {
  token?: string;
  drop?: boolean;
  dup?: { token: string; first: boolean };
  repeat?: number;
}
interface Node {
  key: string;
  name: string | number | null;
  value: unknown;
  parentIsObject: boolean;
}

const SEP = '\u0001';
/** Amplified bodies stay near this size even under a larger cap (the CLI's 20 MB): long, not huge. */
const AMPLIFY_BYTES = 2 * 1024 * 1024;
/** Keys whose numbers are counts in some vendor's payload (the fuzz aims most value edits at them). */
const COUNT_KEY = /cust|out|served|affect|count|num|nbr|meter|total|people|account|^val$|^nc$|^tc$|^oc$/i;
/** Keys of instants (ETRs, start and update times): a sentinel there must not publish a time in the year 33658. */
const TIME_KEY = /time|etr|ert|eta|start|date|updat|restor|_at$/i;
const NUMERIC = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^-?[\d,]+(\.\d+)?$/.test(v.trim()));

function nodesOf(root: unknown): Node[] {
  const out: Node[] = [];
  const walk = (v: unknown, key: string): void => {
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) {
        out.push({ key: key + SEP + i, name: i, value: x, parentIsObject: false });
        walk(x, key + SEP + i);
      }
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push({ key: key + SEP + k, name: k, value: x, parentIsObject: true });
        walk(x, key + SEP + k);
      }
    }
  };
  walk(root, '');
  return out;
}

/** The nodes a target hits (none when its pool is empty). */
function pick(nodes: Node[], t: Target, objectParent = false): Node[] {
  const leafOf = (key: RegExp) =>
    nodes.filter(
      (n) => typeof n.name === 'string' && key.test(n.name) && (n.value === null || typeof n.value !== 'object'),
    );
  let pool =
    t.pool === 'count'
      ? leafOf(COUNT_KEY).filter((n) => NUMERIC(n.value))
      : t.pool === 'time'
        ? leafOf(TIME_KEY)
        : t.pool === 'text'
          ? nodes.filter((n) => typeof n.value === 'string')
          : nodes;
  if (objectParent) pool = pool.filter((n) => n.parentIsObject);
  if (pool.length === 0) return [];
  return t.every && t.pool !== 'any' ? pool : [pool[t.index % pool.length]];
}

function render(v: unknown, key: string, edits: Map<string, Edit>): string {
  const e = edits.get(key);
  if (e?.token !== undefined) return e.token;
  if (Array.isArray(v)) {
    const items: string[] = [];
    v.forEach((x, i) => {
      if (!edits.get(key + SEP + i)?.drop) items.push(render(x, key + SEP + i, edits));
    });
    const times = e?.repeat ?? 1;
    return `[${Array.from({ length: times }, () => items.join(','))
      .filter((s) => s !== '')
      .join(',')}]`;
  }
  if (v && typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      const ce = edits.get(key + SEP + k);
      if (ce?.drop) continue;
      const dup = ce?.dup ? `${JSON.stringify(k)}:${ce.dup.token}` : null;
      if (dup && ce!.dup!.first) parts.push(dup);
      parts.push(`${JSON.stringify(k)}:${render(x, key + SEP + k, edits)}`);
      if (dup && !ce!.dup!.first) parts.push(dup);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** `value` with the hostile text at its start, middle or end (names stay recognisable around it). */
function splice(value: string, text: keyof typeof HOSTILE_TEXT, at: 'start' | 'middle' | 'end'): string {
  const k = at === 'start' ? 0 : at === 'end' ? value.length : Math.floor(value.length / 2);
  return `${value.slice(0, k)}${HOSTILE_TEXT[text]}${value.slice(k)}`;
}

/** The JSON text of an answer with the mutation's edits (the plain text when the mutation is not a JSON edit). */
function editedText(m: Mutation, json: unknown, maxBytes: number): string {
  const edits = new Map<string, Edit>();
  const nodes = m.kind === 'truncate' ? [] : nodesOf(json);
  switch (m.kind) {
    case 'wrong_type':
    case 'null':
    case 'negative':
    case 'sentinel':
    case 'huge':
      for (const n of pick(nodes, m.target)) edits.set(n.key, { token: m.token });
      break;
    case 'missing_key':
      for (const n of pick(nodes, m.target)) edits.set(n.key, { drop: true });
      break;
    case 'duplicate_key':
      for (const n of pick(nodes, m.target, true)) edits.set(n.key, { dup: { token: m.token, first: m.first } });
      break;
    case 'hostile_text': {
      // Every string leaf at most (a 100 KB name in a few: a long body, not one the size cap refuses).
      const hits = pick(nodes, m.target).slice(0, m.text === 'long' ? 3 : 500);
      for (const n of hits) edits.set(n.key, { token: JSON.stringify(splice(String(n.value), m.text, m.at)) });
      break;
    }
    case 'amplify': {
      const arrays = nodes.filter((n) => Array.isArray(n.value) && n.value.length > 0);
      const root = Array.isArray(json) && json.length > 0 ? [{ key: '', value: json }] : [];
      const all = [...root, ...arrays];
      if (all.length === 0) break;
      const a = all[m.index % all.length];
      // Big, but under the size cap: the parse and normalise cost of a long list, not the cap's refusal.
      const fit = Math.max(
        2,
        Math.floor((Math.min(maxBytes, AMPLIFY_BYTES) * 0.6) / (JSON.stringify(a.value).length + 1)),
      );
      edits.set(a.key, { repeat: Math.min(m.times, fit) });
      break;
    }
    default:
      break;
  }
  return render(json, '', edits);
}

export function applyMutation(m: Mutation | null, answer: Answer, maxBytes: number): Served {
  const headers = { 'content-type': 'application/json', ...answer.headers };
  const plain = answer.text ?? (answer.json === undefined ? '' : JSON.stringify(answer.json));
  const served = (body: string | Buffer, over: Partial<Served> = {}): Served => ({
    status: answer.status ?? 200,
    headers,
    body: Buffer.from(body),
    declareLength: true,
    stall: null,
    ...over,
  });
  if (!m) return served(plain);
  switch (m.kind) {
    case 'truncate':
      return served(plain.slice(0, Math.floor((plain.length * m.keepPermille) / 1000)));
    case 'html_200':
      return served(HTML_PAGES[m.page % HTML_PAGES.length], {
        status: 200,
        headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
      });
    case 'empty':
      return served(EMPTY_BODIES.includes(m.body) ? m.body : '', { status: 200 });
    case 'oversized': {
      // Valid JSON padded past the cap: only the size limit can refuse it.
      const body = Buffer.alloc(maxBytes + 64 * 1024, 0x20);
      body.write(plain, 0, 'utf8');
      return served(body, { declareLength: m.declared });
    }
    case 'stalled':
      return served(plain, { stall: m.mode });
    case 'status':
      return served(HTML_PAGES[1], {
        status: m.status,
        headers: {
          ...headers,
          'content-type': 'text/html',
          ...(m.retryAfter === null ? {} : { 'retry-after': m.retryAfter }),
        },
      });
    default:
      return answer.json === undefined ? served(plain) : served(editedText(m, answer.json, maxBytes));
  }
}
