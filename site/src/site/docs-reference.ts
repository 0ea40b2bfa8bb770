// The docs page's reference: every operation of the OpenAPI document the API serves (publish/openapi.ts), as plain
// HTML grouped by its tag, each a <details> to open for its parameters and answers. A phone can read it at first
// paint: swagger-ui (1.7 MB, seconds of script on a phone) loads only when asked for (docs-page.js).
import { buildOpenApi } from '../../../pipeline/src/publish/openapi.ts';
import { esc } from './layout.ts';

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: Parameter[];
  responses?: Record<string, { description?: string }>;
}
type Paths = Record<string, Record<string, Operation>>;

/** The methods listed; every GET's CORS preflight (OPTIONS) is said once, above the list. */
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Escaped text with its `code` spans kept as code (the document's descriptions are written in that Markdown). */
export const prose = (text: string): string => esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function parameters(list: Parameter[]): string {
  if (list.length === 0) return '';
  const items = list.map((p) => {
    const where = `${p.in}${p.required ? ', required' : ''}`;
    return `<dt><code>${esc(p.name)}</code> <small>${esc(where)}</small></dt><dd>${prose(p.description ?? '')}</dd>`;
  });
  return `<h4>Parameters</h4><dl class="op-params">${items.join('')}</dl>`;
}

function responses(map: Record<string, { description?: string }>): string {
  const items = Object.entries(map).map(
    ([code, r]) => `<li><code>${esc(code)}</code> ${prose(r.description ?? '')}</li>`,
  );
  return `<h4>Answers</h4><ul class="op-answers">${items.join('')}</ul>`;
}

function operationHtml(method: string, path: string, op: Operation): string {
  const id = `op-${(op.operationId ?? `${method}-${path}`).replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const flag = op.deprecated ? ' <em>deprecated</em>' : '';
  const head = `<span class="op-method op-${method}">${method.toUpperCase()}</span> <code class="op-path" data-path="${esc(path)}">${esc(path)}</code> <span class="op-summary">${prose(op.summary ?? '')}</span>${flag}`;
  const body = `${op.description ? `<p>${prose(op.description)}</p>` : ''}${parameters(op.parameters ?? [])}${responses(op.responses ?? {})}`;
  return `<details class="op" id="${esc(id)}"><summary>${head}</summary>${body}</details>`;
}

/** The reference's HTML: one heading per tag (the path's first segment after /api/v1), its operations in path order. */
export function referenceHtml(): string {
  const { paths } = buildOpenApi(false) as { paths: Paths };
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(paths))
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, op)]);
    }
  return [...byTag].map(([tag, ops]) => `<h3>${esc(tag)}</h3>${ops.join('')}`).join('');
}

/** The reference's styles: the method as a badge, long paths wrapping on a phone. */
export const REFERENCE_CSS = `.op{border:1px solid #ddd;border-radius:4px;margin:.3em 0;padding:.3em .6em}
.op summary{cursor:pointer}.op-path{overflow-wrap:anywhere}.op-summary{color:#444}@media (max-width:40rem){.op-summary{display:block}}
.op-method{display:inline-block;min-width:3.6em;text-align:center;font:600 .8rem/1.6 system-ui,sans-serif;color:#fff;background:#0b4f9c;border-radius:3px}
.op-post{background:#1b6b3a}.op-put,.op-patch{background:#6b4a00}.op-delete{background:#a00}
.op h4{margin:.6em 0 .2em;font-size:.95rem}.op-params dt{margin-top:.3em}.op-params dd{margin:0 0 0 1em}
.op-answers{margin:.2em 0;padding-left:1.2em}`;
