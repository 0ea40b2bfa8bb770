// The local server's landing: the live county map page of the site (site/src/map/page.ts) and its assets under
// /map/, so `npm start` shows the same map as the deployed site without a separate build. The site modules load on
// first request: the packaged function layer (scripts/package-function.sh) ships pipeline/ only and never serves `/`.
import { Hono } from 'hono';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import { CATALOGUE } from '../contract/catalogue.ts';
import { CITATION } from '../contract/notice.ts';
import { exampleUrl } from '../contract/urls.ts';

const SITE_MAP = '../../../site/src/map';
/** MAP_ASSET_BASE of site/src/map/assets.ts; the map test fails if the two disagree (the page would load nothing). */
const MAP_BASE = '/map';

const page = () => import('../../../site/src/map/page.ts');
const siteAssets = () => import('../../../site/src/map/assets.ts');

export async function landingPage(simulated: boolean, notice: string): Promise<string> {
  const { esc, mapPage } = await page();
  const links = CATALOGUE.map(
    (e) => `<li><a href="${esc(exampleUrl(e))}"><code>${esc(e.path)}</code></a> — ${esc(e.summary)}</li>`,
  ).join('');
  const footer = `<p>Free, keyless JSON API for United States electric power outages. ${esc(notice)}</p>
<p><a href="/api/v1/openapi.json">OpenAPI 3.1</a></p><details><summary>Endpoints</summary><ul>${links}</ul></details><p>${esc(CITATION)}</p>`;
  return mapPage({ simulated, footer });
}

interface Asset {
  body: Buffer;
  gzip: Buffer;
  etag: string;
  type: string;
  cache: string;
}
const assets = new Map<string, Asset>();

/** One asset, read (or, for the geometry, built) on first request and kept with its gzip form. */
async function asset(name: string): Promise<Asset | null> {
  const hit = assets.get(name);
  if (hit) return hit;
  const { assetContentType, BROWSER_MODULES, TOPOLOGY_ASSET } = await siteAssets();
  let body: Buffer;
  if (name === TOPOLOGY_ASSET)
    body = Buffer.from((await import('../../../site/src/map/topology.ts')).mapTopologyJson());
  else if ((BROWSER_MODULES as readonly string[]).includes(name))
    body = fs.readFileSync(new URL(`${SITE_MAP}/browser/${name}`, import.meta.url));
  else return null;
  const a = {
    body,
    gzip: zlib.gzipSync(body, { level: 9 }),
    etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`,
    type: assetContentType(name),
    // The geometry never changes within a release; the modules may, so they revalidate sooner.
    cache: name === TOPOLOGY_ASSET ? 'public, max-age=86400' : 'public, max-age=300',
  };
  assets.set(name, a);
  return a;
}

/** `/` and `/map/*`: mounted by the app before its catalogue routes. */
export function landingRoutes(simulated: () => boolean, notice: () => string): Hono {
  const app = new Hono();
  app.get('/', async (c) => c.html(await landingPage(simulated(), notice())));
  app.get(`${MAP_BASE}/:name`, async (c, next) => {
    const a = await asset(c.req.param('name'));
    if (!a) return next(); // the app's own 404, in the API's error shape
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
  });
  return app;
}
