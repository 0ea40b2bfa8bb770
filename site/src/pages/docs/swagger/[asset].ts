// swagger-ui-dist's files, as the package ships them, for the docs page.
import type { APIRoute, GetStaticPaths } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { SWAGGER_ASSETS } from '../../../site/docs-page.ts';

export const getStaticPaths: GetStaticPaths = () => SWAGGER_ASSETS.map((asset) => ({ params: { asset } }));

export const GET: APIRoute = ({ params }) => {
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const name = params.asset!;
  const type = name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
  return new Response(fs.readFileSync(path.join(dir, name)), { headers: { 'Content-Type': type } });
};
