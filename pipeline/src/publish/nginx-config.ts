// An nginx site generated from the catalogue, the self-hosted twin of host-config.ts's Vercel routes: the exported
// tree (`outage export`) is served from disk with the local server's headers, and everything a file cannot answer
// exactly (filters, other methods, bad input, unknown counties, the 410, OPTIONS) is proxied to `outage serve`.
// nginx's `if` is only used around `return` (anything else inside `if` silently drops try_files), so the choice of
// file by `format` and `table` is made in `map`s at http level. Include the output in nginx's http context.
import {
  CACHE_CONTROL,
  CATALOGUE,
  CONTENT_TYPE,
  FORMAT_EXT,
  FUNCTION_ENDPOINTS,
  type Endpoint,
  type FunctionEndpoint,
} from '../contract/catalogue.ts';
import { dataNotice } from '../contract/notice.ts';
import { fileFor, pathParams } from '../contract/urls.ts';
import { fileQueryNames, IGNORED_QUERY_NAMES } from '../contract/query-params.ts';
import { checkDeprecation, deprecationHeaders, EXPOSE_HEADERS, isV1Path } from '../contract/v1-headers.ts';
import { securityHeaders } from '../contract/security-headers.ts';
import { requestIdMaps, queryMaps, quote, UPSTREAM, proxyBlock, compressionDirectives } from './nginx-directives.ts';

export interface NginxOptions {
  /** the exported tree (`outage export --to`), absolute */
  root: string;
  /** where `outage serve` listens, host:port */
  upstream: string;
  /** nginx `listen` argument, e.g. `80` or `127.0.0.1:8080` */
  listen: string;
  /** labels X-Data-Notice on prebuilt files as simulated (the function layer reads it from the manifest) */
  simulated: boolean;
  serverName?: string;
  /**
   * also send the `.br` siblings (`brotli_static on`): needs ngx_brotli's static module loaded in nginx's main context
   * (Debian: `apt-get install libnginx-mod-http-brotli-static`); without it nginx refuses the directive
   */
  brotliStatic?: boolean;
}

/** What a file path parameter may be: the function layer answers anything else (and a dot could name another file). */
const PARAM_SOURCE: Record<string, string> = { fips: '\\d{5}', county: '\\d{5}', year: '\\d{4}', state: '[a-z]{2}' };

const slug = (id: string) => id.replace(/[^a-z0-9]+/gi, '_');

/** The file location's regex: the public path with each parameter narrowed to its canonical form. */
function fileSource(e: Endpoint): string {
  const src = e.path
    .replace(/[.]/g, '\\.')
    .replace(/\{(\w+)\}/g, (_, k: string) => `(?<${k}>${PARAM_SOURCE[k] ?? '[A-Za-z0-9_-]+'})`);
  return `^${src}$`;
}

/**
 * The file a query selects, as an http-level map: key `<table>|<format>` where each is `-` when absent and `=value`
 * when given (queryMaps), value the file (path parameters filled in by the location's named captures).
 */
function fileMap(e: Endpoint): string {
  const vars = Object.fromEntries(pathParams(e).map((k) => [k, `__${k}__`]));
  const lines: string[] = [];
  for (const table of e.tables ?? [undefined]) {
    const tableKeys = !e.tables ? [''] : table === e.tables[0] ? ['-|', `=${table}|`] : [`=${table}|`];
    for (const f of e.formats) {
      const formatKeys = f === e.formats[0] ? ['-', `=${f}`] : [`=${f}`];
      const file = `/${fileFor(e, vars, f, table)}`.replace(/__(\w+)__/g, (_, k: string) => `$${k}`);
      for (const t of tableKeys) for (const k of formatKeys) lines.push(`  ${quote(t + k)} ${file};`);
    }
  }
  const source = e.tables ? '"$outage_q_table|$outage_q_format"' : '$outage_q_format';
  return `map ${source} $outage_file_${slug(e.id)} {\n  default "";\n${lines.join('\n')}\n}`;
}

/**
 * A query naming anything but the names a file is chosen by and the ignored ones goes to the function layer: the
 * entry's own parameters, and the names it does not take, which the function layer answers 400 `unknown_parameter`.
 */
function functionParamMap(e: Endpoint): string {
  const names = [...fileQueryNames(e), ...IGNORED_QUERY_NAMES].map((n) => n.replace(/[^a-z0-9_]/g, '')).join('|');
  return `map $args $outage_fnq_${slug(e.id)} {\n  default 0;\n  ${quote(`~(?:^|&)(?!(?:${names})(?:[=&]|$))[^&]`)} 1;\n}`;
}

/** Response headers of a prebuilt file: those the local server sets (Content-Type comes from `types`). */
function fileHeaders(e: Endpoint, simulated: boolean): Array<[string, string]> {
  const h: Array<[string, string]> = [
    ['Cache-Control', CACHE_CONTROL[e.cache]],
    ['Vary', 'Accept-Encoding'],
    ['Access-Control-Allow-Origin', '*'],
    ['Access-Control-Expose-Headers', EXPOSE_HEADERS],
    // files are API answers, never embed pages; proxied answers carry the function layer's own
    ...Object.entries(securityHeaders(false)),
  ];
  if (isV1Path(e.path.replace(/\{\w+\}/g, 'x')))
    h.push(['X-Request-Id', '$outage_request_id'], ['X-API-Version', '1'], ['X-Data-Notice', dataNotice(simulated)]);
  if (e.deprecated) {
    checkDeprecation(e.id, e.deprecated);
    h.push(...Object.entries(deprecationHeaders(e.deprecated)));
  }
  return h;
}

function fileLocation(e: Endpoint, simulated: boolean): string {
  const exts = e.formats.map((f) => FORMAT_EXT[f]);
  if (new Set(exts).size !== exts.length)
    throw new Error(
      `Catalogue entry \`${e.id}\` has two formats with one file extension; nginx types cannot tell them apart.`,
    );
  const v = `$outage_file_${slug(e.id)}`;
  const match = pathParams(e).length ? `~ ${quote(fileSource(e))}` : `= ${e.path}`;
  return [
    `  # ${e.id}: ${e.formats.join(', ')}${e.tables ? `; tables ${e.tables.join(', ')}` : ''}`,
    `  location ${match} {`,
    '    if ($outage_not_file) { return 418; }',
    ...(e.functionParams?.length ? [`    if ($outage_fnq_${slug(e.id)}) { return 418; }`] : []),
    `    if (${v} = "") { return 418; }`,
    `    types { ${e.formats.map((f) => `${quote(CONTENT_TYPE[f])} ${FORMAT_EXT[f]};`).join(' ')} }`,
    ...fileHeaders(e, simulated).map(([k, val]) => `    add_header ${k} ${quote(val)};`),
    `    try_files ${v} @outage_fn;`,
    '  }',
  ].join('\n');
}

/** One location for every function-layer path (all methods), catalogue entries served there included: proxied as is. */
function functionLocation(fns: ReadonlyArray<{ path: string }>): string {
  if (!fns.length) return '';
  const sources = [...new Set(fns.map((f) => f.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')))];
  return `  location ~ ${quote(`^(?:${sources.join('|')})$`)} {\n${proxyBlock('    ')}\n  }`;
}

export function nginxConfig(
  opts: NginxOptions,
  all: readonly Endpoint[] = CATALOGUE,
  fns: readonly FunctionEndpoint[] = FUNCTION_ENDPOINTS,
): string {
  const catalogue = all.filter((e) => e.servedBy !== 'function'); // the entries with prebuilt files
  const proxied = [...fns, ...all.filter((e) => e.servedBy === 'function')];
  return `# Generated by \`outage host-config --target nginx\` from the catalogue (pipeline/src/publish/nginx-config.ts).
# Include it in nginx's http context (e.g. /etc/nginx/conf.d/outage.conf); regenerate rather than edit. Its maps add
# variables: if nginx warns about variables_hash, set \`variables_hash_max_size 2048;\` in http.
upstream ${UPSTREAM} {
  server ${opts.upstream};
  keepalive 16;
}

${queryMaps()}

${requestIdMaps()}

${catalogue.map(fileMap).join('\n\n')}

${catalogue
  .filter((e) => e.functionParams?.length)
  .map(functionParamMap)
  .join('\n\n')}

server {
  listen ${opts.listen};
  server_name ${opts.serverName ?? '_'};
  root ${quote(opts.root)};
  server_tokens off;
  # Paths are matched as sent (the local server does not merge //), and a file location hands a request it cannot
  # answer exactly to the function layer, method intact.
  merge_slashes off;
  error_page 418 = @outage_fn;

${compressionDirectives(Boolean(opts.brotliStatic), '  ')}

${functionLocation(proxied)}

${catalogue.map((e) => fileLocation(e, opts.simulated)).join('\n\n')}

  # Everything else (unknown paths, the landing page) is the local server's to answer.
  location / {
${proxyBlock('    ')}
  }

  location @outage_fn {
${proxyBlock('    ')}
  }
}
`;
}
