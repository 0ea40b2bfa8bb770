// The fixed parts of the generated nginx site (nginx-config.ts): quoting, the proxy to `outage serve`, the query maps,
// the X-Request-Id that nginx makes for every request, and compression.
import { CONTENT_TYPE } from '../contract/catalogue.ts';
import { COMPRESSIBLE_FORMATS, MIN_COMPRESS_BYTES } from '../contract/encodings.ts';

/** The upstream block's name: `outage serve`. */
export const UPSTREAM = 'outage_fn';

/**
 * An nginx string token. nginx turns `\\`, `\"`, `\t`, `\n` and `\r` into characters in every token, so a regex's
 * backslashes are doubled; `$` stays, since it is a variable in values and an anchor in regexes.
 */
export function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * Proxy to the function layer. The URI goes as the client sent it; Host is kept for the logs (absolute links come
 * from `--base-url`, never from Host); X-Forwarded-For is the peer only (a client's own header would let it pick its rate-limit bucket); the
 * request id nginx made replaces any the client sent, so the function answers with the one nginx logs.
 */
export function proxyBlock(indent: string): string {
  return [
    `proxy_pass http://${UPSTREAM}$request_uri;`,
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
    'proxy_set_header Host $http_host;',
    'proxy_set_header X-Forwarded-For $remote_addr;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header X-Request-Id $outage_request_id;',
  ]
    .map((l) => indent + l)
    .join('\n');
}

/**
 * `format` and `table` as the file maps key them: `-` when absent, `=value` for the first occurrence (what
 * URLSearchParams.get reads). A file is only served for GET and HEAD with a query free of `%` and `+`: nginx compares
 * raw bytes, so an encoded query goes to the function layer, which decodes it as the local server does.
 */
export function queryMaps(): string {
  const param = (name: string) =>
    `map $args $outage_q_${name} {\n  default "-";\n  ${quote(`~(?:^|&)${name}(?:=([^&]*))?(?:&|$)`)} "=$1";\n}`;
  return [
    '# Query parameters as the file maps key them.',
    param('format'),
    param('table'),
    `map "$request_method|$args" $outage_not_file {\n  default 1;\n  ${quote('~^(?:GET|HEAD)\\|[^%+]*$')} 0;\n}`,
  ].join('\n');
}

/**
 * spec: Versioning — a fresh UUID per request. nginx's $request_id is 32 random hex digits; 30 of them become a version
 * 4 UUID: the version digit is fixed to 4 and the variant digit (8, 9, a or b) is taken from digit 16's low bits.
 */
export function requestIdMaps(): string {
  const variant = ['048c', '159d', '26ae', '37bf'].map((d, i) => `  ${quote(`~^.{16}[${d}]`)} ${'89ab'[i]};`);
  const uuid =
    '~^(?<outage_rid_a>.{8})(?<outage_rid_b>.{4}).(?<outage_rid_c>.{3}).(?<outage_rid_d>.{3})(?<outage_rid_e>.{12})$';
  return [
    '# X-Request-Id: a version 4 UUID made from $request_id.',
    `map $request_id $outage_rid_variant {\n  default 8;\n${variant.join('\n')}\n}`,
    `map $request_id $outage_request_id {\n  default "";\n  ${quote(uuid)} "$outage_rid_a-$outage_rid_b-4$outage_rid_c-$outage_rid_variant$outage_rid_d-$outage_rid_e";\n}`,
  ].join('\n');
}

/**
 * issue 28 part 3: a text file's precompressed siblings (`map.json.gz`, `.br`: the publisher writes them beside every
 * text file of 1 KB or more, and `outage export --precompressed` copies them) are sent as they are; a text file
 * without one (published before siblings existed) is gzipped on the fly. Vary comes from the file locations'
 * add_header (gzip_vary would add a second one); answers of `outage serve` arrive coded already.
 */
export function compressionDirectives(brotliStatic: boolean, indent: string): string {
  const types = [...new Set(COMPRESSIBLE_FORMATS.map((f) => CONTENT_TYPE[f].split(';')[0]))].filter(
    (t) => t !== 'text/html', // always compressed; naming it again is a warning
  );
  return [
    '# Precompressed siblings first, else gzip on the fly (text types, 1 KB or more).',
    'gzip_static on;',
    ...(brotliStatic ? ['brotli_static on;'] : ['# brotli_static on;  (host-config --brotli-static, with ngx_brotli)']),
    'gzip on;',
    'gzip_comp_level 5;',
    `gzip_min_length ${MIN_COMPRESS_BYTES};`,
    `gzip_types ${types.join(' ')};`,
  ]
    .map((l) => indent + l)
    .join('\n');
}
