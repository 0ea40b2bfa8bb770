// The local server's site: the live county map on `/`, every other site page (site/src/site/pages.ts) at the URL
// the deployed site uses, the browser modules and geometry under /map/, and swagger-ui's files under /docs/swagger/,
// so `npm start` shows the same site without a build. The site modules load on first request: the packaged
// function layer (scripts/package-function.sh) ships pipeline/ only and never serves these routes.
import { Hono, type Context } from 'hono';
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DetailName } from '../../../site/src/map/topology.ts';
import { CATALOGUE } from '../contract/catalogue.ts';
import { CITATION } from '../contract/notice.ts';
import { exampleUrl } from '../contract/urls.ts';
import { SITE_PATHS } from '../contract/site-pages.ts';
import { cachedGeometry } from './topology-cache.ts';
import { matchedTag } from './compress.ts';
import { codedEtag, negotiate } from '../contract/encodings.ts';
import { fromRoot } from '../package-root.ts';

/** MAP_ASSET_BASE of site/src/map/assets.ts; the map test fails if the two disagree (the page would load nothing). */
const MAP_BASE = '/map';
/** SWAGGER_BASE of site/src/site/docs-page.ts; the docs page test fails if the two disagree. */
const SWAGGER_BASE = '/docs/swagger';

const page = () => import('../../../site/src/map/page.ts');
const siteAssets = () => import('../../../site/src/map/assets.ts');
const sitePages = () => import('../../../site/src/site/pages.ts');

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
  /** coded forms made ahead (the geometry's, kept between starts); other assets are coded by the compression middleware */
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  type: string;
  cache: string;
}

function makeAsset(body: Buffer, type: string, cache: string, coded?: { gzip: Buffer; br: Buffer }): Asset {
  const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
  return { body, ...coded, etag, type, cache };
}

/** Assets by name, kept once read; a promise, so concurrent first requests share one build. */
const assets = new Map<string, Promise<Asset | null>>();

/** Reads (or builds) an asset once per process; a failed read is tried again on the next request. */
function once(key: string, load: () => Promise<Asset | null>): Promise<Asset | null> {
  let hit = assets.get(key);
  if (!hit) {
    hit = load();
    assets.set(key, hit);
    hit.catch(() => assets.delete(key));
  }
  return hit;
}

/** A geometry asset at its detail, built from us-atlas (or kept from an earlier start in `cacheDir`), with its codings. */
const geometry = (name: string, detail: DetailName, cacheDir: string | undefined) =>
  cachedGeometry(cacheDir, name, async () =>
    Buffer.from((await import('../../../site/src/map/topology.ts')).mapTopologyJson(detail)),
  );

/** One map asset, read (or, for the geometry, built) on first request and kept with its coded forms. */
async function mapAsset(name: string, cacheDir: string | undefined): Promise<Asset | null> {
  const { assetContentType, BROWSER_MODULES, TOPOLOGY_ASSETS } = await siteAssets();
  // The geometry never changes within a release; the modules may, so they revalidate sooner.
  const detail = Object.hasOwn(TOPOLOGY_ASSETS, name) ? TOPOLOGY_ASSETS[name] : undefined;
  if (detail)
    return once(name, async () => {
      const g = await geometry(name, detail, cacheDir);
      return makeAsset(g.body, assetContentType(name), 'public, max-age=86400', g);
    });
  if (!(BROWSER_MODULES as readonly string[]).includes(name)) return null;
  return once(name, async () => {
    const body = fs.readFileSync(fromRoot('site/src/map/browser', name));
    return makeAsset(body, assetContentType(name), 'public, max-age=300');
  });
}

/**
 * What the first map needs, made before anyone asks (`outage start`'s server thread, while the first cycle runs or
 * right after it listens): the page module, the browser modules and the geometry.
 */
export async function warmLanding(cacheDir: string | undefined): Promise<void> {
  await landingPage(false, '');
  const { MAP_ASSETS } = await siteAssets();
  for (const name of MAP_ASSETS) await mapAsset(name, cacheDir);
}

/** One of swagger-ui-dist's files, as the package ships it. */
async function swaggerAsset(name: string): Promise<Asset | null> {
  const { SWAGGER_ASSETS } = await import('../../../site/src/site/docs-page.ts');
  if (!(SWAGGER_ASSETS as readonly string[]).includes(name)) return null;
  return once(`swagger/${name}`, async () => {
    const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    return makeAsset(fs.readFileSync(path.join(dir, name)), type, 'public, max-age=86400');
  });
}

/**
 * Sends an asset with its ETag, and 304 when the client has it (in the coding it asks for, see compress.ts). A form
 * made ahead in that coding is sent as it is; otherwise the compression middleware codes the body (once per asset).
 */
function send(c: Context, a: Asset): Response {
  c.header('Content-Type', a.type);
  c.header('Vary', 'Accept-Encoding');
  c.header('Cache-Control', a.cache);
  const coding = c.req.method === 'GET' ? negotiate(c.req.header('Accept-Encoding')).coding : 'identity';
  const held = matchedTag(c, a.etag, coding);
  const ahead = coding === 'identity' ? undefined : a[coding];
  const coded = ahead && coding !== 'identity' ? { coding, body: ahead } : null;
  c.header('ETag', held ?? (coded ? codedEtag(a.etag, coded.coding) : a.etag));
  if (held) return c.body(null, 304);
  if (!coded) return c.body(new Uint8Array(a.body));
  c.header('Content-Encoding', coded.coding);
  return c.body(new Uint8Array(coded.body));
}

const html = (body: string) => makeAsset(Buffer.from(body), 'text/html; charset=utf-8', 'public, max-age=300');

/**
 * `/`, the site pages, `/map/*` and `/docs/swagger/*`: mounted by the app before its catalogue routes. `cacheDir`
 * keeps the built geometry between starts.
 */
export function landingRoutes(simulated: () => boolean, notice: () => string, cacheDir?: string): Hono {
  const app = new Hono();
  app.get('/', async (c) => send(c, html(await landingPage(simulated(), notice()))));
  app.get(`${MAP_BASE}/:name`, async (c, next) => {
    const a = await mapAsset(c.req.param('name'), cacheDir);
    return a ? send(c, a) : next(); // else the app's own 404, in the API's error shape
  });
  app.get(`${SWAGGER_BASE}/:name`, async (c, next) => {
    const a = await swaggerAsset(c.req.param('name'));
    return a ? send(c, a) : next();
  });
  // Site pages at the deployed site's URLs, with or without the trailing slash a static host adds.
  app.get('*', async (c, next) => {
    if (/^\/(api|feeds)\//.test(c.req.path)) return next(); // the API's, and the function layer has no site/
    const { PAGES } = await sitePages();
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
