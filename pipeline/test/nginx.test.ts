// A real web server in the tests (issue #11 part 4): Debian's nginx (scripts/install-nginx.sh installs it when missing)
// serves an `outage export` of a simulated run with the site `outage host-config --target nginx` generates, proxying
// what a file cannot answer to the in-process local server; every request of the host-config URL set must answer the
// same from nginx as from the local server (status, bytes, content type, cache class, CORS, v1 headers). The export
// carries the precompressed siblings, which nginx sends (gzip_static, and brotli_static with Debian's ngx_brotli
// static module, which install-nginx.sh installs beside nginx).
import { HOST_CONFIG_REQUESTS } from './host-requests.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { manualClock } from '../src/clock.ts';
import { Simulator } from '../src/simulator/server.ts';
import { parseRegistry } from '../src/registry/registry.ts';
import { Pipeline } from '../src/pipeline.ts';
import { LOOPBACK_HTTP } from '../src/sources/http.ts';
import { resolve } from '../src/serve/app.ts';
import { startServer } from '../src/serve/server.ts';
import { exportTree } from '../src/cli/export.ts';
import { fileRoute, urlFor } from '../src/contract/urls.ts';
import { readManifest } from '../src/publish/tree-parts.ts';
import { CACHE_CONTROL, endpoint } from '../src/contract/catalogue.ts';
import { nginxConfig } from '../src/publish/nginx-config.ts';
import { importEagleI } from '../src/history/import.ts';
import { deriveEpisodes } from '../src/history/derive.ts';
import { countyModel, loadCountyModel } from '../src/geo/county-model.ts';
import { publishHistoryTree } from '../src/publish/reports.ts';
import { hasSharedData, sharedPath } from './shared-data.ts';
import { closeAll, makeTempDir, removeTempDir } from './clean-machine.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Debian's nginx, installed first if needed; or why there is none (a failure under CI, a skip elsewhere). */
async function findNginx(): Promise<{ path: string | null; reason: string }> {
  const r = await run('bash', [path.join(ROOT, 'scripts/install-nginx.sh')], { timeout: 900_000 }).catch(
    (err: { stderr?: string; code?: number }) => ({ stdout: '', stderr: err.stderr ?? `exit ${err.code}` }),
  );
  const found = r.stdout.trim().split('\n').at(-1) ?? '';
  if (found) return { path: found, reason: '' };
  const reason = r.stderr.trim() || 'scripts/install-nginx.sh printed no path';
  if (process.env.CI === 'true') throw new Error(`The nginx test must run under CI: ${reason}`);
  return { path: null, reason };
}
const NGINX = await findNginx();
if (!NGINX.path) console.warn(`nginx.test.ts skipped: ${NGINX.reason}`);
/** Debian's ngx_brotli static module (libnginx-mod-http-brotli-static): loaded, and the site sends `.br` siblings. */
const BROTLI_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';
const BROTLI = NGINX.path !== null && fs.existsSync(BROTLI_MODULE);
if (NGINX.path && !BROTLI) {
  if (process.env.CI === 'true') throw new Error(`The nginx test must run with ${BROTLI_MODULE} under CI.`);
  console.warn(`nginx.test.ts: no ${BROTLI_MODULE}, brotli_static is not tried`);
}

const freePort = () =>
  new Promise<number>((done, fail) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => done(port));
    });
    s.on('error', fail);
  });

/** A whole nginx.conf around the generated site: everything nginx writes stays in `dir`. */
function mainConf(dir: string): string {
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`);
  return [
    ...(BROTLI ? [`load_module ${BROTLI_MODULE};`] : []),
    'daemon off;',
    'master_process off;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    '  variables_hash_max_size 2048;',
    ...temps,
    `  include ${dir}/site.conf;`,
    '}',
    '',
  ].join('\n');
}

/**
 * nginx in the foreground with its own prefix, pid, logs and temp dirs; resolves once it accepts connections. `track`
 * gets the process as soon as it exists, so afterAll stops it even when this fails.
 */
async function startNginx(
  bin: string,
  dir: string,
  writeSite: (listen: string) => Promise<void>,
  track: (child: ChildProcess) => void,
) {
  const port = await freePort();
  await writeSite(`127.0.0.1:${port}`);
  fs.writeFileSync(path.join(dir, 'nginx.conf'), mainConf(dir));
  const child = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  track(child);
  const log = () =>
    fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${log()}`);
    const up = await new Promise<boolean>((done) =>
      net
        .connect(port, '127.0.0.1')
        .once('connect', function (this: net.Socket) {
          this.destroy();
          done(true);
        })
        .once('error', () => done(false)),
    );
    if (up) return { url: `http://127.0.0.1:${port}` };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s:\n${log()}`);
}

async function stopNginx(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

const T0 = new Date('2026-09-01T08:00:00Z');
const clock = manualClock(T0);
// Made in beforeAll, so a run without nginx (the suite skipped) makes nothing.
let dir = '';
let out = '';
let exported = '';
let nginxDir = '';
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let sim: Simulator | undefined;
let pipeline: Pipeline | undefined;
let local: Awaited<ReturnType<typeof startServer>> | undefined;
let nginx: ChildProcess | undefined;
let nginxUrl = '';
const outage = (...args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'bin/outage.js'), ...args], { cwd: dir, timeout: 60_000 });

afterAll(() =>
  closeAll(
    () => stopNginx(nginx),
    () => local?.close(),
    () => pipeline?.close(),
    () => sim?.stop(),
    () => removeTempDir(dir),
  ),
);

describe.skipIf(!NGINX.path)('nginx serving the exported tree', () => {
  beforeAll(async () => {
    dir = makeTempDir('nginx');
    out = path.join(dir, 'public');
    exported = path.join(dir, 'export');
    nginxDir = path.join(dir, 'nginx');
    sim = new Simulator({ clock, seed: 2, epoch: new Date('2026-09-01T00:00:00Z'), sources: 20, areasPerCounty: 2 });
    await sim.start();
    pipeline = await Pipeline.open({
      stateDir: path.join(dir, 'state'),
      outDir: out,
      sources: parseRegistry(sim.registryCsv()).sources,
      clock,
      simulated: true,
      http: { ...LOOPBACK_HTTP, bodyTimeoutMs: 8000, connectTimeoutMs: 8000 },
    });
    await pipeline.cycle();
    if (hasSharedData) {
      // The report tree from a real file: the Harris County Beryl slice of EAGLE-I 2024.
      await importEagleI(pipeline.db, sharedPath('history/eaglei/eaglei_outages_2024_harris_beryl_slice.csv'));
      await deriveEpisodes(pipeline.db, await countyModel(pipeline.db, loadCountyModel()));
      await publishHistoryTree(pipeline.db, out, { now: clock() });
    }
    local = await startServer({ outDir: out, port: 0 });
    const upstream = local.url.replace('http://', '');
    const started = await startNginx(
      NGINX.path!,
      nginxDir,
      async (listen) => {
        fs.mkdirSync(nginxDir, { recursive: true });
        // The site as the CLI writes it; `outage export`'s copy runs meanwhile (in-process: no second tsx start-up).
        const args = [
          '--target',
          'nginx',
          '--file',
          path.join(nginxDir, 'site.conf'),
          '--simulated',
          '--root',
          exported,
        ];
        if (BROTLI) args.push('--brotli-static');
        const written = outage('host-config', ...args, '--upstream', upstream, '--listen', listen);
        exportTree(out, exported, { precompressed: true });
        await written;
      },
      (child) => (nginx = child),
    );
    nginxUrl = started.url;
  });

  it('answers the host-config URL set exactly as the local server does', async () => {
    const requests = urlSet();
    let files = 0;
    let functions = 0;
    let historyFiles = 0;
    for (const [method, url] of requests) {
      const u = new URL(`http://x${url}`);
      const r = resolve(method, u.pathname, u.searchParams);
      // An encoded query goes to the function layer by design (nginx compares raw bytes); it serves the same file.
      const raw = r.kind === 'file' && fs.existsSync(path.join(exported, r.file)) && !/[%+]/.test(u.search);
      const served = raw ? 'file' : 'function';
      const [viaNginx, direct] = await Promise.all([ask(nginxUrl, method, url), ask(local!.url, method, url)]);
      const what = `${method} ${url}`;
      expect(viaNginx.status, what).toBe(direct.status);
      expect(viaNginx.headers, what).toEqual(direct.headers);
      // A function answer's absolute links come from --base-url, never from Host: the bytes are the same.
      expect(sameBytes(viaNginx.body, direct.body, [nginxUrl, local!.url]), what).toBe('');
      // nginx's static module marks what it served from disk; the proxied answers are the function layer's own.
      expect(viaNginx.servedFromDisk ? 'file' : 'function', what).toBe(served);
      for (const id of [viaNginx.requestId, direct.requestId]) if (isV1(u.pathname)) expect(id, what).toMatch(UUID4);
      if (served === 'file' && direct.headers['cache-control'] === CACHE_CONTROL.history) historyFiles += 1;
      if (served === 'file') files += 1;
      else functions += 1;
    }
    expect(files).toBeGreaterThan(300);
    expect(functions).toBeGreaterThanOrEqual(25);
    if (hasSharedData) expect(historyFiles).toBeGreaterThan(0);
  });

  it('gives every v1 response a fresh X-Request-Id, and replaces one the client sent', async () => {
    const mine = '00000000-0000-4000-8000-000000000000';
    const ids: string[] = [];
    for (const url of ['/api/v1/live/summary', '/api/v1/live/summary', '/api/v1/live/counties/123']) {
      const r = await ask(nginxUrl, 'GET', url, { 'X-Request-Id': mine });
      expect([url, r.servedFromDisk]).toEqual([url, url.endsWith('summary')]);
      ids.push(r.requestId!);
    }
    for (const id of ids) expect(id).toMatch(UUID4);
    expect(new Set([...ids, mine]).size).toBe(4);
  });

  it('sends the precompressed siblings as Accept-Encoding asks, with Vary and a validator per coding', async () => {
    const files = readManifest(out)!.files;
    const codings = BROTLI ? (['br', 'gzip'] as const) : (['gzip'] as const);
    for (const rel of ['api/v1/live/sources.json', 'api/v1/openapi.json']) {
      const url = `/${rel.replace(/\.json$/, rel.startsWith('api/v1/live') ? '' : '.json')}`;
      expect(files[rel].encodings, rel).toBeDefined();
      const identity = await raw(nginxUrl, url, { 'Accept-Encoding': 'identity' });
      expect([identity.status, identity.headers['content-encoding'], identity.headers.vary]).toEqual([
        200,
        undefined,
        'Accept-Encoding',
      ]);
      expect(identity.body.equals(fs.readFileSync(path.join(exported, rel))), url).toBe(true);
      for (const coding of codings) {
        const suffix = coding === 'br' ? '.br' : '.gz';
        const a = await raw(nginxUrl, url, { 'Accept-Encoding': `${coding};q=0.9, identity;q=0.1` });
        const what = `${url} ${coding}`;
        // the sibling as the publisher wrote it, Vary once (from the location, not gzip_vary as well)
        expect([a.status, a.headers['content-encoding'], a.headers.vary], what).toEqual([
          200,
          coding,
          'Accept-Encoding',
        ]);
        expect(a.body.equals(fs.readFileSync(path.join(exported, rel + suffix))), what).toBe(true);
        expect(a.headers.etag, what).not.toBe(identity.headers.etag);
        const again = await raw(nginxUrl, url, { 'Accept-Encoding': coding, 'If-None-Match': String(a.headers.etag) });
        expect(again.status, what).toBe(304);
        // the local server sends the same content in the same coding
        const local_ = await raw(local!.url, url, { 'Accept-Encoding': `${coding};q=0.9, identity;q=0.1` });
        expect(local_.headers['content-encoding'], what).toBe(coding);
        expect(decode(local_).equals(decode(a)), what).toBe(true);
      }
    }
    // a file under 1 KB has no sibling and is not coded on the fly either
    const small = Object.keys(files).find(
      (f) => /^api\/v1\/live\/counties\/\d{5}\.json$/.test(f) && files[f].bytes < 1024,
    )!;
    const tiny = await raw(nginxUrl, `/${small.replace(/\.json$/, '')}`, { 'Accept-Encoding': 'gzip, br' });
    expect([tiny.status, tiny.headers['content-encoding']]).toEqual([200, undefined]);
  });

  it("answers conditional requests on nginx's own validators", async () => {
    const first = await fetch(`${nginxUrl}/api/v1/live/map`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await fetch(`${nginxUrl}/api/v1/live/map`, { headers: { 'If-None-Match': etag } });
    expect([again.status, again.headers.get('x-api-version')]).toEqual([304, '1']);
  });

  it("puts a deprecated entry's Deprecation, Sunset and Link on its files, in a config nginx accepts", async () => {
    // Worked out by hand (as in deprecation.test.ts): 2026-10-01T00:00:00Z is 1790812800 s after the epoch.
    const summary = endpoint('live.summary');
    const sunset = { since: '2026-10-01', sunset: '2027-01-15', link: 'https://outage.example/docs/migrating' };
    const old = { ...summary, id: 'test.deprecated', path: '/api/v1/test/deprecated', deprecated: sunset };
    const site = nginxConfig(
      { root: exported, upstream: '127.0.0.1:9', listen: '127.0.0.1:9', simulated: false },
      [summary, old],
      [],
    );
    const block = (p: string) => site.slice(site.indexOf(`location = ${p} {`)).split('\n  }\n')[0];
    expect(block('/api/v1/test/deprecated')).toContain('add_header Deprecation "@1790812800";');
    expect(block('/api/v1/test/deprecated')).toContain('add_header Sunset "Fri, 15 Jan 2027 00:00:00 GMT";');
    expect(block('/api/v1/test/deprecated')).toContain(
      'add_header Link "<https://outage.example/docs/migrating>; rel=\\"deprecation\\"; type=\\"text/html\\"";',
    );
    expect(block('/api/v1/live/summary')).not.toContain('add_header Deprecation');
    const checkDir = path.join(dir, 'nginx-check');
    fs.mkdirSync(checkDir);
    fs.writeFileSync(path.join(checkDir, 'site.conf'), site);
    fs.writeFileSync(path.join(checkDir, 'nginx.conf'), mainConf(checkDir));
    const conf = path.join(checkDir, 'nginx.conf');
    const r = await run(NGINX.path!, ['-t', '-p', checkDir, '-c', conf, '-e', path.join(checkDir, 'error.log')]);
    expect(r.stderr).toContain('test is successful');
  });
});

const isV1 = (p: string) => /^\/(api\/v1\/|feeds\/|llms\.txt$)/.test(p);

/** The headers the contract fixes (X-Request-Id is fresh per response; ETag and Last-Modified are the host's own). */
const COMPARED = [
  'content-type',
  'cache-control',
  'vary',
  'location',
  'allow',
  'retry-after',
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'x-api-version',
  'x-data-notice',
  'deprecation',
  'sunset',
  'link',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
];

async function ask(base: string, method: string, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, { method, headers, redirect: 'manual' });
  const body = Buffer.from(await res.arrayBuffer());
  return {
    status: res.status,
    headers: Object.fromEntries(COMPARED.map((h) => [h, res.headers.get(h)])),
    body,
    requestId: res.headers.get('x-request-id'),
    // nginx's static module: Accept-Ranges on identity files; a precompressed sibling (gzip_static) has none, but its
    // ETag is nginx's own, `"<mtime>-<size>"` in hex (the function layer's are content hashes, `"<hash>[-coding]"`)
    servedFromDisk:
      res.headers.get('accept-ranges') === 'bytes' ||
      /^(W\/)?"[0-9a-f]+-[0-9a-f]+"$/.test(res.headers.get('etag') ?? ''),
  };
}

/** One GET, the body as sent (fetch would decode it). */
function raw(base: string, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((done, fail) => {
    http
      .get(`${base}${url}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', fail);
  });
}

const decode = (a: { headers: http.IncomingHttpHeaders; body: Buffer }) =>
  a.headers['content-encoding'] === 'br'
    ? zlib.brotliDecompressSync(a.body)
    : a.headers['content-encoding'] === 'gzip'
      ? zlib.gunzipSync(a.body)
      : a.body;

function sameBytes(a: Buffer, b: Buffer, [origin, as]: [string, string]): string {
  if (a.equals(b)) return '';
  if (a.includes(origin) && Buffer.from(a.toString('utf8').replaceAll(origin, as)).equals(b)) return '';
  return `${a.length} vs ${b.length} bytes: ${a.subarray(0, 160).toString()} ≠ ${b.subarray(0, 160).toString()}`;
}

/** The host-config test's requests (pipeline/test/whole-run.test.ts), plus OPTIONS and a few a file must not answer. */
function urlSet(): Array<[string, string]> {
  const asUrl = (f: string, withTable: boolean): [string, string] => {
    const r = fileRoute(f)!;
    const query = {
      ...(r.format === r.endpoint.formats[0] ? {} : { format: r.format }),
      ...(withTable && r.table ? { table: r.table } : {}),
    };
    return ['GET', urlFor(r.endpoint, r.params, query)];
  };
  const history = Object.keys(readManifest(out, 'history')?.files ?? {}).filter(
    (f, i) => i % 40 === 0 && !f.includes('/_'),
  );
  const live = Object.keys(readManifest(out)!.files)
    .filter((f) => !f.includes('/_'))
    .slice(0, 400);
  return [...FIXED, ...history.map((f) => asUrl(f, true)), ...live.map((f) => asUrl(f, false))];
}

const FIXED: Array<[string, string]> = [
  ...HOST_CONFIG_REQUESTS,
  // Beyond the host-config set: CORS preflights, and requests that look like a file but are not one.
  ['OPTIONS', '/api/v1/live/map'],
  ['OPTIONS', '/api/v1/rules/rule_x'],
  ['OPTIONS', '/api/v1/nope'],
  ['HEAD', '/api/v1/reports/data?table=states'],
  ['GET', '/api/v1/live/summary.json'],
  ['GET', '//api/v1/live/summary'],
  ['GET', '/api/v1/live/counties/12086?form%61t=csv'],
  ['GET', '/api/v1/live/counties/12086?format='],
  ['GET', '/api/v1/live/counties/12086?format=csv&format=json'],
  ['GET', '/api/v1/live/counties/12086/areas?format=geojson'],
  ['GET', '/api/v1/live/counties/12086/areas?active=true'],
  ['GET', '/api/v1/events?limit=5'],
  // issue 38 part 5: a name the entry does not take is the function layer's 400; the cache busters are the file's
  ['GET', '/api/v1/events?cursor=ZXYxOjA'],
  ['GET', '/api/v1/events?_=1767225600000'],
  ['GET', '/api/v1/live/timeline?cb=1&hours=2'],
  ['GET', '/feeds/events.rss'],
  ['GET', '/api/v1/feeds/events.json'],
  ['GET', '/api/v1/coverage?format=csv'],
];
