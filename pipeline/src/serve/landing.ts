// The local server's site: the live county map on `/`, every other site page (site/src/site/pages.ts) at the URL
// the deployed site uses, the browser modules and geometry under /map/, and swagger-ui's files under /docs/swagger/,
// so `npm start` shows the same site without a build. The site modules load on first request: the packaged
// function layer (scripts/package-function.sh) ships pipeline/ only and never serves these routes.
import { Hono, type Context } from 'hono';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { CATALOGUE } from '../contract/catalogue.ts';
import { CITATION } from '../contract/notice.ts';
import { exampleUrl } from '../contract/urls.ts';

const SITE_MAP = '../../../site/src/map';
/** MAP_ASSET_BASE of site/src/map/assets.ts; the map test fails if the two disagree (the page would load nothing). */
const MAP_BASE = '/map';
/** SWAGGER_BASE of site/src/site/docs-page.ts; the docs page test fails if the two disagree. */
const SWAGGER_BASE = '/docs/swagger';

const page = () => import('../../../site/src/map/page.ts');
const siteAssets = () => import('../../../site/src/map/assets.ts');
const sitePages = () => import('../../../site/src/site/pages.ts');
const siteRoutes = () => import('../../../site/src/site/routes.ts');

export async function landingPage(simulated: boolean, notice: string): Promise<string> {
  const { esc, mapPage } = await page();
  const links = CATALOGUE.map(
    (e) => `<li><a href="${esc(exampleUrl(e))}"><code>${esc(e.path)}</code></a> — ${esc(e.summary)}</li>`,
  ).join('');
  const footer = `<p>Free, keyless JSON API for United States electric power outages. ${esc(notice)}</p>
<p><a href="/docs/">API documentation</a> · <a href="/api/v1/openapi.json">OpenAPI 3.1</a></p><details><summary>Endpoints</summary><ul>${links}</ul></details><p>${esc(CITATION)}</p>`;
  return mapPage({ simulated, footer });
}

interface Asset {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  type: string;
  cache: string;
}

function makeAsset(body: Buffer, type: string, cache: string): Asset {
  const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
  return { body, gzip: zlib.gzipSync(body, { level: 9 }), etag, type, cache };
}

const assets = new Map<string, Asset>();

/** One map asset, read (or, for the geometry, built) on first request and kept with its gzip form. */
async function mapAsset(name: string): Promise<Asset | null> {
  const hit = assets.get(name);
  if (hit) return hit;
  const { assetContentType, BROWSER_MODULES, TOPOLOGY_ASSET } = await siteAssets();
  let body: Buffer;
  if (name === TOPOLOGY_ASSET)
    body = Buffer.from((await import('../../../site/src/map/topology.ts')).mapTopologyJson());
  else if ((BROWSER_MODULES as readonly string[]).includes(name))
    body = fs.readFileSync(new URL(`${SITE_MAP}/browser/${name}`, import.meta.url));
  else return null;
  // The geometry never changes within a release; the modules may, so they revalidate sooner.
  const a = makeAsset(body, assetContentType(name), `public, max-age=${name === TOPOLOGY_ASSET ? 86400 : 300}`);
  assets.set(name, a);
  return a;
}

/** One of swagger-ui-dist's files, as the package ships it. */
async function swaggerAsset(name: string): Promise<Asset | null> {
  const key = `swagger/${name}`;
  const hit = assets.get(key);
  if (hit) return hit;
  const { SWAGGER_ASSETS } = await import('../../../site/src/site/docs-page.ts');
  if (!(SWAGGER_ASSETS as readonly string[]).includes(name)) return null;
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  const a = makeAsset(fs.readFileSync(path.join(dir, name)), type, 'public, max-age=86400');
  assets.set(key, a);
  return a;
}

/** Sends an asset with its ETag, gzip when the client takes it, and 304 when it already has it. */
function send(c: Context, a: Asset): Response {
  c.header('Content-Type', a.type);
  c.header('ETag', a.etag);
  c.header('Vary', 'Accept-Encoding');
  c.header('Cache-Control', a.cache);
  if (c.req.header('If-None-Match') === a.etag) return c.body(null, 304);
  if (/\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '')) {
    c.header('Content-Encoding', 'gzip');
    return c.body(new Uint8Array(a.gzip));
  }
  return c.body(new Uint8Array(a.body));
}

const html = (body: string) => makeAsset(Buffer.from(body), 'text/html; charset=utf-8', 'public, max-age=300');

/** `/`, the site pages, `/map/*` and `/docs/swagger/*`: mounted by the app before its catalogue routes. */
export function landingRoutes(simulated: () => boolean, notice: () => string): Hono {
  const app = new Hono();
  app.get('/', async (c) => send(c, html(await landingPage(simulated(), notice()))));
  app.get(`${MAP_BASE}/:name`, async (c, next) => {
    const a = await mapAsset(c.req.param('name'));
    return a ? send(c, a) : next(); // else the app's own 404, in the API's error shape
  });
  app.get(`${SWAGGER_BASE}/:name`, async (c, next) => {
    const a = await swaggerAsset(c.req.param('name'));
    return a ? send(c, a) : next();
  });
  // Site pages at the deployed site's URLs, with or without the trailing slash a static host adds.
  app.get('*', async (c, next) => {
    if (/^\/(api|feeds)\//.test(c.req.path)) return next(); // the API's, and the function layer has no site/
    const [{ PAGES }, { SITE_PATHS }] = await Promise.all([sitePages(), siteRoutes()]);
    const want = c.req.path.replace(/(.)\/$/, '$1');
    for (const [name, template] of Object.entries(SITE_PATHS)) {
      if (name === 'home') continue;
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const re = new RegExp(`^${template.replace(/\/$/, '').replace(/\{\w+\}/g, '([A-Za-z0-9]+)')}$`);
      const m = re.exec(want);
      if (!m) continue;
      const body = PAGES[name as keyof typeof PAGES](Object.fromEntries(names.map((n, i) => [n, m[i + 1]])));
      return body === null ? next() : send(c, html(body));
    }
    return next();
  });
  return app;
}
