// Kubra fetch: currentState → configuration → summary (options.summary) → report (every top-level region), thematic
// areas as the fallback, or neither when the cluster layer's points give the counties → the cluster tiles.
// currentState names everything else by immutable paths (the deployment's configuration, the data generation's files):
// when it answers 304 and the pipeline holds the snapshot it led to, nothing else is requested (UNCHANGED).
import { readHead, UNCHANGED, type FetchContext } from '../connector.ts';
import { SourceError } from '../../errors.ts';
import { parseUpstream } from '../parse.ts';
import { configurationSchema, currentStateSchema, reportRefSchema, type KubraRaw } from './schema.ts';
import { clusterLayerId, walkClusters, type ClusterRecord } from './clusters.ts';

/** Report ids listed in a configuration, county reports first. */
export function reportIds(config: unknown): string[] {
  const found: Array<{ id: string; type?: string }> = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const r = reportRefSchema.safeParse(v);
      if (r.success) found.push(r.data);
      else Object.values(v).forEach(visit);
    }
  };
  visit((config as { config?: { reports?: unknown } }).config?.reports);
  const rank = (t?: string) => (/county/i.test(t ?? '') ? 0 : /town|city|munic/i.test(t ?? '') ? 1 : 2);
  return found.sort((a, b) => rank(a.type) - rank(b.type)).map((r) => r.id);
}

/** The named options fetch reads: the county source and whether to walk the cluster layer and read the summary. */
function wants(options: Record<string, unknown>): { points: boolean; clusters: boolean; summary: boolean } {
  const c = options.counties;
  if (c !== undefined && c !== 'report' && c !== 'clusters')
    throw new SourceError('config', `Kubra options.counties must be "report" or "clusters", got ${JSON.stringify(c)}`);
  const points = c === 'clusters';
  return { points, clusters: points || options.incidents === true, summary: options.summary === true };
}

export async function fetch(ctx: FetchContext): Promise<KubraRaw | typeof UNCHANGED> {
  const want = wants(ctx.source.options);
  const stateUrl = new URL(ctx.source.url);
  const head = await readHead(ctx, stateUrl.href);
  if (head === UNCHANGED) return UNCHANGED;
  const current = parseUpstream(currentStateSchema, head, 'Kubra currentState');
  const dataUrl = `${stateUrl.origin}/${current.data.interval_generation_data.replace(/^\/+/, '')}/public`;
  const configuration = await readConfiguration(ctx, stateUrl, current.stormcenterDeploymentId);
  const raw: KubraRaw = {};
  if (want.summary) raw.summary = await ctx.http.getJson(`${dataUrl}/summary-1/data.json`, ctx.priority);
  if (!want.points) Object.assign(raw, await readAreas(ctx, dataUrl, configuration));
  // Individual outages from the cluster layer, when the registry asks for them or places counties by them.
  if (want.clusters) raw.clusters = await readClusterLayer(ctx, stateUrl.origin, current, configuration);
  return raw;
}

/** The deployment's configuration: currentState's url with `/currentState` replaced by `/configuration/{id}`. */
async function readConfiguration(ctx: FetchContext, stateUrl: URL, deploymentId: string): Promise<unknown> {
  const configUrl = new URL(stateUrl.href.replace(/\/currentState(\?.*)?$/, `/configuration/${deploymentId}$1`));
  if (configUrl.href === stateUrl.href)
    throw new SourceError('config', `Kubra url must end in /currentState, got ${stateUrl.href}`);
  return parseUpstream(
    configurationSchema,
    await ctx.http.getJson(configUrl.href, ctx.priority),
    'Kubra configuration',
  );
}

/** The county report (options.report_id, else the configuration's first), or the thematic areas without one. */
async function readAreas(ctx: FetchContext, dataUrl: string, configuration: unknown): Promise<KubraRaw> {
  const wanted =
    typeof ctx.source.options.report_id === 'string' ? [ctx.source.options.report_id] : reportIds(configuration);
  if (wanted.length > 0)
    return { report: await ctx.http.getJson(`${dataUrl}/reports/${wanted[0]}_report.json`, ctx.priority) };
  return { thematic: await ctx.http.getJson(`${dataUrl}/thematic-1/thematic_areas.json`, ctx.priority) };
}

async function readClusterLayer(
  ctx: FetchContext,
  origin: string,
  current: { data: { cluster_interval_generation_data?: string } },
  configuration: unknown,
): Promise<ClusterRecord[]> {
  const layer = clusterLayerId(configuration);
  const clusterPath = current.data.cluster_interval_generation_data;
  if (!layer || typeof clusterPath !== 'string')
    throw new SourceError(
      'schema',
      'Kubra deployment has no CLUSTER_LAYER or cluster data path, but options.incidents or counties: "clusters" is set',
    );
  return walkClusters(ctx, origin, clusterPath, layer);
}
