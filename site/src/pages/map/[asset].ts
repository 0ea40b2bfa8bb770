// The map's static assets as files of the built site: the browser modules as written, the geometry from us-atlas.
import type { APIRoute, GetStaticPaths } from 'astro';
import { assetContentType, MAP_ASSETS, TOPOLOGY_ASSETS } from '../../map/assets.ts';
import { mapTopologyJson } from '../../map/topology.ts';

const modules = import.meta.glob<string>('../../map/browser/*.js', { query: '?raw', import: 'default', eager: true });

export const getStaticPaths: GetStaticPaths = () => MAP_ASSETS.map((asset) => ({ params: { asset } }));

export const GET: APIRoute = ({ params }) => {
  const name = params.asset!;
  const detail = TOPOLOGY_ASSETS[name];
  const body = detail ? mapTopologyJson(detail) : modules[`../../map/browser/${name}`];
  if (body === undefined) throw new Error(`No map asset ${name}: add it to site/src/map/browser/ and MAP_ASSETS.`);
  return new Response(body, { headers: { 'Content-Type': assetContentType(name) } });
};
